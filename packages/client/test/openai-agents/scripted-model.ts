/**
 * A scripted Agents SDK `Model`: the neighbour of the adapters under test. Each model turn takes
 * the next step of the script (function calls or a final text) and records the request it got,
 * so tests can assert on what the SDK's own run loop sent the model after a tool ran.
 */
import {
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
  Usage,
} from '@openai/agents';

/** One model turn: tool calls to make, or the final answer. */
export type ScriptStep =
  | { call: string; args?: Record<string, unknown> }
  | { calls: Array<{ name: string; args?: Record<string, unknown> }> }
  | { text: string };

/** A model that plays a script and keeps the requests it got. */
export interface ScriptedModel extends Model {
  readonly requests: ModelRequest[];
}

let callCounter = 0;

function outputOf(step: ScriptStep): AgentOutputItem[] {
  if ('text' in step) {
    return [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: step.text }],
      },
    ];
  }
  const calls = 'call' in step ? [{ name: step.call, args: step.args }] : step.calls;
  return calls.map((call) => ({
    type: 'function_call',
    callId: `call_${++callCounter}`,
    name: call.name,
    arguments: JSON.stringify(call.args ?? {}),
    status: 'completed',
  }));
}

/** A model playing `script`; once it runs out it answers "done". */
export function createScriptedModel(script: ScriptStep[]): ScriptedModel {
  const steps = [...script];
  const requests: ModelRequest[] = [];
  return {
    requests,
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      requests.push(request);
      const step = steps.shift() ?? { text: 'done' };
      return { usage: new Usage(), output: outputOf(step), responseId: `response_${requests.length}` };
    },
    // biome-ignore lint/correctness/useYield: the tests run non-streamed; a stream is refused loudly.
    async *getStreamedResponse(): AsyncIterable<StreamEvent> {
      throw new Error('the scripted model does not stream');
    },
  };
}

/** The function call outputs in a request's input, by call name order. */
export function toolOutputsOf(request: ModelRequest): Array<{ name?: string | undefined; output: unknown }> {
  const input = typeof request.input === 'string' ? [] : request.input;
  return input
    .filter((item) => item.type === 'function_call_result')
    .map((item) => item as { name?: string | undefined; output: unknown })
    .map((item) => ({ name: item.name, output: item.output }));
}

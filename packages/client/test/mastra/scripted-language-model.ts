/**
 * The neighbour of the adapter under test: an AI SDK language model (ai 6's `MockLanguageModelV3`)
 * that answers from a script, a tool call or a text per turn, and records each turn's prompt and
 * tool names. Mastra's agent loop, the tools and the MCP servers are real.
 */

import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';

// The provider spec types, from the mock itself (@ai-sdk/provider is not a dependency of ours).
export type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3['doStream']>[0];
type LanguageModelV3StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part>
    ? Part
    : never;

/** One scripted turn. */
export type ScriptedStep =
  | { toolCalls: Array<{ name: string; args: Record<string, unknown>; id?: string }> }
  | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A scripted model and what it was given. */
export function createScriptedModel(script: ScriptedStep[]): {
  model: MockLanguageModelV3;
  prompts: LanguageModelV3CallOptions[];
} {
  const steps = [...script];
  const prompts: LanguageModelV3CallOptions[] = [];
  const partsOf = (options: LanguageModelV3CallOptions): LanguageModelV3StreamPart[] => {
    prompts.push(options);
    const step = steps.shift() ?? { text: '(script ended)' };
    if ('text' in step) {
      return [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: step.text },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ];
    }
    return [
      { type: 'stream-start', warnings: [] },
      ...step.toolCalls.map(
        (call, index): LanguageModelV3StreamPart => ({
          type: 'tool-call',
          toolCallId: call.id ?? `call_${prompts.length}_${index}`,
          toolName: call.name,
          input: JSON.stringify(call.args),
        }),
      ),
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];
  };
  const model = new MockLanguageModelV3({
    doStream: async (options) => ({ stream: convertArrayToReadableStream(partsOf(options)) }),
    // Mastra's generate asks for the whole answer at once: the same parts, gathered.
    doGenerate: async (options) => {
      const parts = partsOf(options);
      const finish = parts.find((part) => part.type === 'finish');
      const content: Array<
        Extract<LanguageModelV3StreamPart, { type: 'tool-call' }> | { type: 'text'; text: string }
      > = [];
      for (const part of parts) {
        if (part.type === 'tool-call') content.push(part);
        if (part.type === 'text-delta') content.push({ type: 'text', text: part.delta });
      }
      return {
        content,
        finishReason:
          finish?.type === 'finish' ? finish.finishReason : { unified: 'stop' as const, raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

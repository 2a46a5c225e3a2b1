/**
 * The neighbour of the AI SDK adapter in its tests: a language model (the AI SDK's own
 * `MockLanguageModelV3`) that answers from a script, one reply per step, and records what it was
 * sent (prompts and offered tools) so tests can check what the model saw.
 */
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';

/** What the model is sent on one step. */
export type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];
type Reply = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** One scripted reply: tool calls, or a final text. */
export type ScriptedReply = { toolCalls: Array<{ name: string; input: unknown }> } | { text: string };

const usage: Reply['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

let nextCallId = 0;

function toReply(reply: ScriptedReply): Reply {
  if ('text' in reply) {
    return {
      content: [{ type: 'text', text: reply.text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  }
  return {
    content: reply.toolCalls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: `call-${++nextCallId}`,
      toolName: call.name,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer T> ? T : never;

/** A reply as the parts a streaming model sends. */
function toStream(reply: Reply): ReadableStream<StreamPart> {
  const parts: StreamPart[] = [];
  for (const [index, part] of reply.content.entries()) {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: `t${index}` });
      parts.push({ type: 'text-delta', id: `t${index}`, delta: part.text });
      parts.push({ type: 'text-end', id: `t${index}` });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', finishReason: reply.finishReason, usage: reply.usage });
  return convertArrayToReadableStream(parts);
}

/**
 * A model answering `replies` in order, then a final text, to `generateText` and `streamText`
 * alike. Its `doGenerateCalls` / `doStreamCalls` are what it was sent.
 */
export function scriptedModel(replies: ScriptedReply[]): MockLanguageModelV3 {
  const queue = [...replies];
  return new MockLanguageModelV3({
    doGenerate: async () => toReply(queue.shift() ?? { text: 'done' }),
    doStream: async () => ({ stream: toStream(toReply(queue.shift() ?? { text: 'done' })) }),
  });
}

/** The names of the tools offered on a call. */
export function offeredTools(call: CallOptions | undefined): string[] {
  return (call?.tools ?? []).map((tool) => tool.name);
}

type PromptMessage = CallOptions['prompt'][number];
/** A tool-result part of a prompt. */
export type PromptToolResult = Extract<
  Extract<PromptMessage, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>;

/** The tool-result parts of a call's prompt (what the model got back from tools). */
export function toolResultsIn(call: CallOptions | undefined): PromptToolResult[] {
  return (call?.prompt ?? []).flatMap((message) =>
    message.role === 'tool'
      ? message.content.filter((part): part is PromptToolResult => part.type === 'tool-result')
      : [],
  );
}

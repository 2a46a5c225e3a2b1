/**
 * An offline AI SDK language model for the Mastra example (Mastra agents take AI SDK models): each
 * turn of the script is a tool call or a final text, built from the prompt so far. ai's own
 * `MockLanguageModelV3` carries it, so Mastra's loop treats it as it treats a provider's model.
 */

import { MockLanguageModelV3 } from 'ai/test';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];

/** One turn: call a tool, or answer. */
export type LanguageModelTurn = (
  prompt: CallOptions['prompt'],
) => { tool: string; args: Record<string, unknown> } | { text: string };

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** A language model that plays a script. */
export function createScriptedLanguageModel(script: LanguageModelTurn[]): MockLanguageModelV3 {
  const turns = [...script];
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const turn = turns.shift()?.(options.prompt) ?? { text: '(the script has ended)' };
      calls++;
      if ('text' in turn) {
        return {
          content: [{ type: 'text', text: turn.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `call_${calls}`,
            toolName: turn.tool,
            input: JSON.stringify(turn.args),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

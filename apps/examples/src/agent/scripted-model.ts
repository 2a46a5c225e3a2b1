/**
 * A deterministic model for offline runs and tests. Each script names the tools it needs for a
 * request, in order; when a needed tool is not on offer it calls `discover_tools` first, exactly
 * what a real model is told to do. It is stateless: progress is read from the conversation.
 */
import type { ChatMessage, ModelAdapter, ModelReply, ToolCall } from './model-adapter.js';

/** One tool call a script makes. */
export interface ScriptedStep {
  /** The tool's name on its server (matched against public names by suffix). */
  tool: string;
  /** The arguments, or a function of the user's request that returns them. */
  arguments: Record<string, unknown> | ((request: string) => Record<string, unknown>);
  /** What to ask `discover_tools` when the tool is not on offer. @default the tool name */
  discover?: string;
}

/** What to do for requests that match. */
export interface Script {
  match: RegExp;
  steps: ScriptedStep[];
  /** The final answer from the tool results (as the loop sent them), in step order. @default a line per result */
  answer?: (results: string[]) => string;
}

const isTool = (message: ChatMessage): message is Extract<ChatMessage, { role: 'tool' }> =>
  message.role === 'tool';
// The loop sends each result as core's wrapped shape in JSON.
const summarise = (results: string[]): string =>
  results
    .map((content) => {
      const result = JSON.parse(content) as { status: string; message?: string; error?: string };
      return result.status === 'success' ? `Done: ${result.message}` : `Could not do it: ${result.error}`;
    })
    .join('\n');
const matches = (publicName: string, tool: string): boolean =>
  publicName === tool || publicName.endsWith(`__${tool}`);

/** Creates a model that follows `scripts`; requests no script matches get a polite refusal. */
export function createScriptedModel(scripts: Script[], discoverTool = 'discover_tools'): ModelAdapter {
  return {
    name: 'scripted (offline, deterministic)',
    async generate({ messages, tools }): Promise<ModelReply> {
      const lastUser = messages.findLastIndex((message) => message.role === 'user');
      const request = String(messages[lastUser]?.content ?? '');
      const script = scripts.find((candidate) => candidate.match.test(request));
      if (!script) return { text: 'I have no script for that request.' };

      const turn = messages.slice(lastUser + 1).filter(isTool);
      const results = turn
        .filter((message) => message.name !== discoverTool)
        .map((message) => message.content);
      const step = script.steps[results.length];
      if (!step) {
        return { text: (script.answer ?? summarise)(results) };
      }
      const call = (name: string, args: Record<string, unknown>): ModelReply => {
        const toolCall: ToolCall = { id: `call_${lastUser}_${turn.length}`, name, arguments: args };
        return { toolCalls: [toolCall] };
      };
      const offered = tools.find((tool) => matches(tool.name, step.tool));
      const args = typeof step.arguments === 'function' ? step.arguments(request) : step.arguments;
      if (offered) return call(offered.name, args);
      if (turn.at(-1)?.name === discoverTool) {
        return { text: `I could not find a tool to ${step.discover ?? step.tool}.` };
      }
      return call(discoverTool, { query: step.discover ?? step.tool.replaceAll('_', ' ') });
    },
  };
}

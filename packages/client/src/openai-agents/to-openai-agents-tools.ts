/**
 * Switchboard tools as Agents SDK function tools, for `new Agent({ tools })`. Each tool keeps its
 * JSON Schema as is (`strict: false`: MCP schemas have optional properties, which strict mode
 * would force into required-and-nullable). Approvals go through the SDK's own `needsApproval`:
 * the run stops with `result.interruptions`, a person calls `result.state.approve(item)` or
 * `reject(item)`, and the run continues from the state; an approved call then runs with
 * `approved: true`, a rejected one never runs and the model gets the SDK's rejection message.
 */

import { type FunctionTool, type RunContext, tool } from '@openai/agents';
import { ClientError, ClientErrorCode } from '../client-error.js';
import { type AdapterToolOptions, toAdapterTool } from '../framework-adapter/adapter-tool.js';
import {
  type AdapterSelectOptions,
  type ToolSource,
  type ToolSourceOptions,
  toolsOf,
} from '../framework-adapter/tool-source.js';
import { type OpenAIAgentsToolOutput, toOpenAIAgentsOutput } from './to-openai-agents-output.js';
import { createTurnSelection } from './turn-selection.js';

/** Options of {@link toOpenAIAgentsTools}. */
export interface OpenAIAgentsToolsOptions extends AdapterToolOptions, ToolSourceOptions {
  /**
   * Offer per run only the tools a selector picks for the latest user input (plus
   * `alwaysInclude`), through each tool's `isEnabled`. The agent must be wrapped with
   * `withOpenAIAgentsToolSelection`, which lets the tools see that input.
   */
  select?: AdapterSelectOptions;
}

/** A function tool made from a Switchboard tool. */
export type OpenAIAgentsTool = FunctionTool<unknown, any, OpenAIAgentsToolOutput>;

/**
 * The model sees the text of the client's errors (they name the tool, the server and what to do),
 * not the SDK's generic "an error occurred". An abort is no message for the model: it ends the run.
 */
export function toolErrorText(error: unknown): string {
  if (ClientError.isInstance(error) && (error as ClientError).code === ClientErrorCode.Cancelled) throw error;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The name the SDK gives a function tool: it turns every character outside `[a-zA-Z0-9]` into
 * `_` (`get-sum` → `get_sum`). Done here so approvals are looked up under the name the SDK keeps.
 */
export function toFunctionToolName(name: string): string {
  return name.replace(/[^a-zA-Z0-9]/g, '_');
}

/** The tools of a source as Agents SDK function tools (names as {@link toFunctionToolName} makes them). */
export function toOpenAIAgentsTools(
  source: ToolSource,
  options: OpenAIAgentsToolsOptions = {},
): OpenAIAgentsTool[] {
  const available = toolsOf(source, options);
  const selection =
    options.select === undefined ? undefined : createTurnSelection(() => available, options.select);
  return available.map((registered) => {
    const adapter = toAdapterTool(registered, options);
    const name = toFunctionToolName(adapter.name);
    return tool({
      name,
      description: adapter.description,
      parameters: adapter.inputSchema as never,
      strict: false,
      // A tool record's policy decision is made once (mcp-tool.ts), so a plain boolean: the SDK
      // then skips its per-call approval step for the tools that never ask.
      needsApproval: adapter.needsApproval(),
      ...(selection === undefined
        ? {}
        : {
            isEnabled: ({ runContext, agent }) =>
              selection.isSelected(runContext as RunContext<unknown>, agent, registered.name),
          }),
      errorFunction: (_context, error) => toolErrorText(error),
      async execute(input, runContext, details) {
        const callId = details?.toolCall?.callId;
        // The SDK runs a tool that needed approval only once a person approved this very call.
        // (Looked up only for tools that ask: most never do.)
        const approved =
          callId !== undefined &&
          adapter.needsApproval() &&
          runContext?.isToolApproved({ toolName: name, callId }) === true;
        const content = await adapter.call(input, {
          ...(details?.signal === undefined ? {} : { signal: details.signal }),
          approved,
        });
        return toOpenAIAgentsOutput(content);
      },
    }) as OpenAIAgentsTool;
  });
}

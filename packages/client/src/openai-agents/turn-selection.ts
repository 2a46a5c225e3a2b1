/**
 * Per-turn tool selection for the Agents SDK. Its runner asks each function tool's `isEnabled`
 * (and each MCP server's `toolFilter`) before every model call, but hands them only the run
 * context, not the input. The input reaches the agent's `agent_start` event, which fires before
 * the tools are gathered: {@link withOpenAIAgentsToolSelection} listens there and records the
 * latest user text per run context, and the tools' predicates select against it, once per run
 * context and query.
 */

import type { Agent, AgentInputItem, RunContext } from '@openai/agents';
import type { RegisteredTool } from '@switchboard/core';
import { ClientError, ClientErrorCode } from '../client-error.js';
import { type AdapterSelectOptions, selectTools } from '../framework-adapter/tool-source.js';

// Keyed by the run context the runner passes to both the event and the predicates: one per run.
const latestUserText = new WeakMap<RunContext<unknown>, string>();
const trackedAgents = new WeakSet<object>();

function textOf(item: AgentInputItem): string | undefined {
  if (!('role' in item) || item.role !== 'user') return undefined;
  const content = item.content;
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'input_text' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The text of the last user message of a turn's input ('' when there is none). */
export function latestUserTextOf(input: string | readonly AgentInputItem[]): string {
  if (typeof input === 'string') return input;
  for (let index = input.length - 1; index >= 0; index--) {
    const text = textOf(input[index] as AgentInputItem);
    if (text !== undefined) return text;
  }
  return '';
}

/**
 * Lets the agent's Switchboard tools (and MCP servers) made with `select` pick their tools from
 * the latest user input of each run. Returns the agent, so it wraps `new Agent(...)`.
 */
export function withOpenAIAgentsToolSelection<TAgent extends Agent<any, any>>(agent: TAgent): TAgent {
  if (trackedAgents.has(agent)) return agent;
  trackedAgents.add(agent);
  agent.on('agent_start', (context, _agent, turnInput) => {
    latestUserText.set(context as RunContext<unknown>, latestUserTextOf(turnInput ?? []));
  });
  return agent;
}

/** Answers "is this tool selected for this run?", sharing one selection per run context and query. */
export interface TurnSelection {
  isSelected(runContext: RunContext<unknown>, agent: Agent<any, any>, name: string): Promise<boolean>;
}

/** A selection over `available` (their public names) with `select`. */
export function createTurnSelection(
  available: () => readonly RegisteredTool[],
  select: AdapterSelectOptions,
): TurnSelection {
  const chosen = new WeakMap<RunContext<unknown>, { query: string; names: Promise<Set<string>> }>();
  return {
    async isSelected(runContext, agent, name) {
      const query = latestUserText.get(runContext);
      if (query === undefined) {
        if (!trackedAgents.has(agent)) {
          throw new ClientError({
            code: ClientErrorCode.ConfigInvalid,
            message: `Agent "${agent.name}" has Switchboard tools with \`select\`, but its input is not tracked: wrap the agent as withOpenAIAgentsToolSelection(new Agent({ ... })) so each run selects from the user's input.`,
            context: { agent: agent.name },
          });
        }
        // A run resumed from a serialized state starts no agent run, so no input was seen:
        // without a query every tool stays on rather than none.
        return true;
      }
      let entry = chosen.get(runContext);
      if (entry === undefined || entry.query !== query) {
        entry = {
          query,
          names: selectTools(available(), query, select).then(
            (tools) => new Set(tools.map((tool) => tool.name)),
          ),
        };
        chosen.set(runContext, entry);
      }
      return (await entry.names).has(name);
    },
  };
}

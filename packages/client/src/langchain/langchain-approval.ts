/**
 * Approval of a tool call inside a LangGraph graph: `interrupt()` pauses the graph with a request
 * the application shows a person, and `new Command({ resume: answer })` continues it. LangGraph is
 * loaded only here and only when a call needs approval, so `@switchboard/client/langchain` works
 * with `@langchain/core` alone.
 */

import type { ToolRunnableConfig } from '@langchain/core/tools';

/** What the graph's interrupt carries (`result.__interrupt__[0].value`), for the application to show. */
export interface LangChainApprovalRequest {
  type: 'tool_approval';
  /** The tool's name as the model sees it. */
  toolName: string;
  server: string;
  /** The tool's name on its server. */
  tool: string;
  args: unknown;
  toolCallId?: string;
  /** Why the policy asks (from the approval policy), when it says. */
  reason?: string;
}

/** The resume value: `true`/`false`, or an object with a reason the model is told on refusal. */
export type LangChainApprovalAnswer = boolean | { approved: boolean; reason?: string };

/**
 * True when the call runs inside a LangGraph graph that can pause: `interrupt()` needs the graph's
 * checkpointer to resume, and throws without one.
 */
export function canInterrupt(config: ToolRunnableConfig | undefined): boolean {
  const configurable = config?.configurable as Record<string, unknown> | undefined;
  return configurable?.__pregel_checkpointer !== undefined && configurable.__pregel_scratchpad !== undefined;
}

/** Pauses the graph for a person's answer (throws LangGraph's GraphInterrupt the first time through). */
export async function askInGraph(
  request: LangChainApprovalRequest,
): Promise<{ approved: boolean; reason?: string }> {
  const { interrupt } = await import('@langchain/langgraph');
  const answer = interrupt<LangChainApprovalRequest, LangChainApprovalAnswer>(request);
  if (typeof answer === 'boolean') return { approved: answer };
  if (typeof answer === 'object' && answer !== null && typeof answer.approved === 'boolean') {
    return answer.reason === undefined ? { approved: answer.approved } : answer;
  }
  // Anything else is not a yes: a tool that needs approval never runs on an unclear answer.
  return { approved: false, reason: `unrecognised resume value ${JSON.stringify(answer)}` };
}

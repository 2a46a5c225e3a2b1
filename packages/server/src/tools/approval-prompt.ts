/**
 * Where a person is asked about a tool whose approval policy says `ask`. Only `deny` hides a tool
 * from `tools/list`; an `ask` tool is listed (never advertised read-only) and, by the prompt in
 * use, either asked about through the calling client (an MCP elicitation, in either era: the
 * tool context's `elicit`) or left to the host, which confirms tool calls itself (Claude Desktop,
 * Cursor, VS Code ask the user before a call), or refused where nobody can be asked. `hide` keeps
 * the old rule: such tools are not served at all.
 */
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/server';
import type { ToolContext } from './define-tool.js';

/**
 * Where a person is asked about an `ask` tool:
 * - `'auto'`: through the client (an elicitation) when it declares form elicitation and can be
 *   reached; otherwise the call runs, and the host's own per-call confirmation is what asks;
 * - `'elicit'`: always through the client; a client that cannot be asked gets the call refused;
 * - `'host'`: never by the server: the call runs, the host confirms calls itself;
 * - `'hide'`: such tools are not served (not listed, and a call says why).
 */
export type ApprovalPrompt = 'auto' | 'elicit' | 'host' | 'hide';

/** The prompts by name (for option checks and `--help`). */
export const approvalPrompts: readonly ApprovalPrompt[] = ['auto', 'elicit', 'host', 'hide'];

/** What a served `ask` tool carries: why it needs a person's yes. */
export interface ApprovalNeed {
  /** The policy's reason (for the question and the refusal). */
  reason: string;
}

/** The tool a question is about. */
export interface ApprovalSubject {
  /** Its public name. */
  name: string;
  /** The server it comes from (`local` for the server's own tools). */
  server: string;
  /** Its name on that server. */
  originalName: string;
}

/** Longest argument text shown in the question (the rest is cut, with a mark). */
const argumentPreviewLength = 600;

/**
 * True when the client can answer a form elicitation: it declared `elicitation` with no mode named
 * (form is implied) or with `form`. A client that declared only `url` cannot show a confirmation.
 */
export function canElicitForm(capabilities: ClientCapabilities): boolean {
  const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined || elicitation === null) return false;
  const modes = Object.keys(elicitation);
  return modes.length === 0 || 'form' in elicitation;
}

function describeSubject(subject: ApprovalSubject): string {
  return subject.server === 'local' || subject.originalName === subject.name
    ? `"${subject.name}"`
    : `"${subject.originalName}" of "${subject.server}" (${subject.name})`;
}

function previewArguments(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  if (text === undefined || text === '{}') return 'no arguments';
  return text.length > argumentPreviewLength
    ? `arguments ${text.slice(0, argumentPreviewLength)}… (${text.length} characters)`
    : `arguments ${text}`;
}

function refusal(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * Asks for a person's yes before an `ask` tool runs, as `prompt` says: resolves `undefined` when the
 * call may run, or the `isError` result that answers it instead (declined, dismissed, or nobody to
 * ask). The question is an elicitation with no fields: accept runs the call, decline or cancel
 * refuses it; in the 2026-07-28 era the call answers input-required and runs on the retry.
 */
export async function askForApproval(
  prompt: Exclude<ApprovalPrompt, 'hide'>,
  context: ToolContext,
  subject: ApprovalSubject,
  need: ApprovalNeed,
  args: Record<string, unknown>,
): Promise<CallToolResult | undefined> {
  if (prompt === 'host') return undefined;
  const tool = describeSubject(subject);
  if (!canElicitForm(context.clientCapabilities)) {
    if (prompt === 'auto') return undefined;
    return refusal(
      `Tool ${tool} needs a person's approval (${need.reason}), and this client cannot be asked: it did not declare the elicitation capability, or has no channel for server requests (a 2025 client over stateless HTTP). The call did not run. Call it from a client that supports elicitation, or let the host confirm calls (approval prompt 'host'; \`switchboard serve --approval host\`).`,
    );
  }
  // No `mode`: form is the default in every revision, and 2025-06-18 clients know no other.
  const answer = await context.elicit({
    message: `Allow the tool ${tool} to run with ${previewArguments(args)}? It needs your approval: ${need.reason}.`,
    requestedSchema: { type: 'object', properties: {} },
  } as Parameters<ToolContext['elicit']>[0]);
  if (answer.action === 'accept') return undefined;
  return refusal(
    `The call of ${tool} was ${answer.action === 'decline' ? 'declined' : 'dismissed'} by the person asked to approve it; it did not run. Do not retry it unless they ask for it.`,
  );
}

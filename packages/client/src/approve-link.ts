/**
 * The approve link: a tool runs only when the approval policy allows it, or when the person asked
 * (`approve`) says yes — or when the caller says it already asked (`approved`, as a framework that
 * pauses a run for approval does). A refused call never reaches the server and is not counted.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { ToolApproval } from './core-tool-steps.js';
import type { ToolCallLink } from './tool-call-chain.js';

/** What the `approve` callback is asked about. */
export interface ApprovalPrompt {
  /** Public (namespaced) name. */
  name: string;
  server: string;
  /** Name on the server. */
  originalName: string;
  description: string;
  annotations?: Tool['annotations'];
  /** The arguments the call would send. */
  args: Record<string, unknown>;
  /** Why the policy asks. */
  reason: string;
}

/** Asked before a tool whose policy says `ask` runs: `true` runs it, `false` refuses. */
export type ApproveCallback = (prompt: ApprovalPrompt) => boolean | Promise<boolean>;

/** Options of {@link createApproveLink}. */
export interface ApproveLinkOptions {
  tool: Tool;
  server: string;
  /** The policy's decision for the tool (worked out once). */
  decision(): ToolApproval;
  /** Who is asked when the policy says ask; without it such a call is `APPROVAL_REQUIRED`. */
  approve?: ApproveCallback | undefined;
}

/** Runs a call only with the policy's (or the person's) consent. */
export function createApproveLink(options: ApproveLinkOptions): ToolCallLink {
  const { tool, server, approve } = options;
  const ask = async (args: Record<string, unknown>, reason: string, name: string): Promise<void> => {
    const context = { server, tool: tool.name, publicName: name };
    if (!approve) {
      throw new ClientError({
        code: ClientErrorCode.ApprovalRequired,
        message: `Tool "${name}" (server "${server}") needs approval (${reason}), and no approve callback was given. Pass \`approve\` to connectMcp, or allow the tool in the approval policy (approval: 'never', or an allow glob).`,
        context,
      });
    }
    const granted = await approve({
      name,
      server,
      originalName: tool.name,
      description: tool.description ?? '',
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      args,
      reason,
    });
    if (granted !== true) {
      throw new ClientError({
        code: ClientErrorCode.ApprovalDenied,
        message: `Tool "${name}" (server "${server}") was not approved; it did not run.`,
        context,
      });
    }
  };
  return (call, next) => {
    const approval = options.decision();
    if (approval.decision === 'allow' || (approval.decision === 'ask' && call.options.approved === true)) {
      return next(call);
    }
    if (approval.decision === 'deny') {
      return Promise.reject(
        new ClientError({
          code: ClientErrorCode.ApprovalDenied,
          message: `Tool "${call.publicName}" (server "${server}") is refused by the approval policy (${approval.reason}); it did not run.`,
          context: { server, tool: tool.name, publicName: call.publicName },
        }),
      );
    }
    return ask(call.args, approval.reason, call.publicName).then(() => next(call));
  };
}

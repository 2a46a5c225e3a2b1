/**
 * The approval a configured server's tool gets, as the client's `toApprovalPolicy` decides it from
 * the server's `approval` setting and the tool's annotations — what `tools` shows and `call`
 * enforces, the same decision `connectMcp` makes.
 */
import { type ServerConfig, toApprovalPolicy } from '@switchboard/client';
import type { ApprovalResult, RegisteredTool } from '@switchboard/core';

/** Decides run / ask / deny for `tool` under its server's config. */
export function decideToolApproval(tool: RegisteredTool, entry: ServerConfig | undefined): ApprovalResult {
  return toApprovalPolicy(tool.server, entry?.approval).decide({
    name: tool.name,
    server: tool.server,
    originalName: tool.originalName,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  });
}

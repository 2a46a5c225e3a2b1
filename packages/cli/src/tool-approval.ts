/**
 * The approval a configured server's tool gets, as core's policy decides it from the server's
 * `approval` setting and the tool's annotations — what `tools` shows and `call` enforces.
 */
import type { ServerConfig } from '@switchboard/client';
import { type ApprovalResult, createApprovalPolicy, type RegisteredTool } from '@switchboard/core';

/** Decides run / ask / deny for `tool` under its server's config. */
export function decideToolApproval(tool: RegisteredTool, entry: ServerConfig | undefined): ApprovalResult {
  const setting = entry?.approval;
  const mode = typeof setting === 'object' ? setting.mode : setting;
  const rules = typeof setting === 'object' ? { allow: setting.allow ?? [], deny: setting.deny ?? [] } : {};
  const policy = createApprovalPolicy({
    ...(mode !== undefined ? { mode } : {}),
    servers: { [tool.server]: rules },
  });
  return policy.decide({
    name: tool.name,
    server: tool.server,
    originalName: tool.originalName,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  });
}

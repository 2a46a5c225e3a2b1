/**
 * The approval setting of one server and the one converter of it into core's `ApprovalPolicy`:
 * `connectMcp`, `loadMcpTools` and the CLI's `tools` / `call` all decide through it, so a
 * setting means the same wherever it is read.
 */
import {
  type ApprovalMode,
  type ApprovalPolicy,
  type ApprovalRules,
  createApprovalPolicy,
} from '@switchboard/core';

/**
 * Approval of a server's tools: a mode (`'annotations'`, `'always'`, `'never'` or a function), a
 * mode plus allow/deny name globs (the config's form, `ApprovalConfig`, is this without functions),
 * or a ready core `ApprovalPolicy`.
 */
export type ApprovalSetting = ApprovalMode | (ApprovalRules & { mode?: ApprovalMode }) | ApprovalPolicy;

function isPolicy(setting: ApprovalSetting): setting is ApprovalPolicy {
  return typeof setting === 'object' && typeof (setting as ApprovalPolicy).decide === 'function';
}

/**
 * The policy of `server`'s tools under `setting`: a policy is used as is; a mode or a mode with
 * globs becomes core's `createApprovalPolicy`, the globs keyed by `server`. Throws core's
 * `INVALID_ARGUMENT` error for an unknown mode or a malformed glob list.
 */
export function toApprovalPolicy(server: string, setting: ApprovalSetting = 'annotations'): ApprovalPolicy {
  if (isPolicy(setting)) return setting;
  if (typeof setting === 'string' || typeof setting === 'function')
    return createApprovalPolicy({ mode: setting });
  return createApprovalPolicy({
    ...(setting.mode === undefined ? {} : { mode: setting.mode }),
    servers: {
      [server]: {
        ...(setting.allow ? { allow: setting.allow } : {}),
        ...(setting.deny ? { deny: setting.deny } : {}),
      },
    },
  });
}

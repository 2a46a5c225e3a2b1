/**
 * What trust does with what it finds: block, warn or do nothing about changed, new and renamed
 * tools; trust a new server on first use or quarantine it whole; which finding severity
 * quarantines a tool. Set for the whole connection, and per server on top.
 */

import { SwitchboardError } from '../switchboard-error.js';
import { type FindingSeverity, findingSeverities } from './tool-finding.js';

/** The trust policy of a connection or of one server. */
export interface ToolTrustPolicy {
  /**
   * Tool pinning. `block`: a changed, new or renamed tool of a known server (and a tool with a
   * blocking finding) is quarantined — hidden from the model, its calls refused — until approved.
   * `warn`: it stays usable, with a warning event. `off`: no pinning and no checks.
   * @default 'block'
   */
  pin?: 'block' | 'warn' | 'off';
  /** A server seen for the first time: trusted on first use, or quarantined whole. @default 'trust' */
  newServers?: 'trust' | 'quarantine';
  /** Findings at or above this severity quarantine their tool, even on first use. @default 'high' */
  quarantineAt?: FindingSeverity | 'never';
}

/** A policy with every field set. */
export type ResolvedTrustPolicy = Required<ToolTrustPolicy>;

/** The defaults: block, trust new servers on first use, quarantine on `high` findings. */
export const defaultTrustPolicy: ResolvedTrustPolicy = {
  pin: 'block',
  newServers: 'trust',
  quarantineAt: 'high',
};

const pins = ['block', 'warn', 'off'];
const newServers = ['trust', 'quarantine'];

/** Checks a policy given by a user; `where` names it in the error (`server "github"`). */
export function checkTrustPolicy(policy: unknown, where: string): ToolTrustPolicy {
  if (policy === undefined) return {};
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) {
    throw new SwitchboardError({
      code: 'CONFIG_INVALID',
      message: `Trust policy of ${where} must be an object such as { "pin": "block" } (got ${JSON.stringify(policy)}).`,
      context: { where },
    });
  }
  const record = policy as Record<string, unknown>;
  const check = (key: string, allowed: readonly string[]) => {
    const value = record[key];
    if (value !== undefined && (typeof value !== 'string' || !allowed.includes(value))) {
      throw new SwitchboardError({
        code: 'CONFIG_INVALID',
        message: `Trust policy of ${where}: "${key}" must be one of ${allowed.map((item) => `"${item}"`).join(', ')} (got ${JSON.stringify(value)}).`,
        context: { where, key },
      });
    }
  };
  check('pin', pins);
  check('newServers', newServers);
  check('quarantineAt', [...findingSeverities, 'never']);
  for (const key of Object.keys(record)) {
    if (!['pin', 'newServers', 'quarantineAt'].includes(key)) {
      throw new SwitchboardError({
        code: 'CONFIG_INVALID',
        message: `Trust policy of ${where}: unknown key "${key}" (known: pin, newServers, quarantineAt).`,
        context: { where, key },
      });
    }
  }
  return record as ToolTrustPolicy;
}

/** The policy of one server: its own fields over the connection's, over the defaults. */
export function resolveTrustPolicy(
  connection?: ToolTrustPolicy,
  server?: ToolTrustPolicy,
): ResolvedTrustPolicy {
  return {
    pin: server?.pin ?? connection?.pin ?? defaultTrustPolicy.pin,
    newServers: server?.newServers ?? connection?.newServers ?? defaultTrustPolicy.newServers,
    quarantineAt: server?.quarantineAt ?? connection?.quarantineAt ?? defaultTrustPolicy.quarantineAt,
  };
}

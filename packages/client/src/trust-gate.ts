/**
 * The call side of tool trust: a quarantined tool is refused with `TOOL_QUARANTINED`, naming the
 * server, the tool and what changed, and what to run to review it. One Map read per call.
 */
import type { ToolTrust, ToolTrustVerdict } from '@switchboard/core';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { ToolCallLink } from './tool-call-chain.js';

/** Refuses calls to tools that trust has not cleared. */
export interface TrustGate {
  /** Throws `TOOL_QUARANTINED` when the tool is listed but not usable. */
  check(server: string, tool: string): void;
  /** The verdict on a listed tool that is not usable, else undefined. */
  blocked(server: string, tool: string): ToolTrustVerdict | undefined;
}

const changeText: Record<string, string> = {
  'new-server': 'it comes from a server seen for the first time, and the policy quarantines new servers',
  'new-tool': 'it is new on a server whose tools were pinned',
  changed: 'its definition changed since it was approved',
  renamed: 'it looks like a pinned tool under another name',
  finding: 'a check found text aimed at the model in it',
};

/** The error of a call to a quarantined (or rejected) tool. */
export function quarantinedError(verdict: ToolTrustVerdict): ClientError {
  const { server, tool } = verdict;
  const what =
    verdict.state === 'rejected'
      ? 'was rejected by a person'
      : `is quarantined: ${changeText[verdict.change ?? 'changed'] ?? verdict.change}`;
  const parts = verdict.parts?.length ? ` (changed: ${verdict.parts.join(', ')})` : '';
  const renamed = verdict.previousName === undefined ? '' : ` (was "${verdict.previousName}")`;
  const findings = verdict.findings.filter(
    (finding) => finding.severity === 'high' || finding.severity === 'critical',
  );
  const found = findings.length
    ? ` Findings: ${[...new Set(findings.map((finding) => `${finding.code} in ${finding.field}`))].join('; ')}.`
    : '';
  return new ClientError({
    code: ClientErrorCode.ToolQuarantined,
    message: `Tool "${tool}" of MCP server "${server}" ${what}${parts}${renamed}. It is hidden from the model and refused until approved.${found} Review it with \`switchboard tools diff ${server} ${tool}\`, then \`switchboard tools approve ${server} ${tool}\` (or connection.trust.approve({ server: '${server}', tool: '${tool}' })).`,
    context: {
      server,
      tool,
      state: verdict.state,
      change: verdict.change,
      parts: verdict.parts,
      previousName: verdict.previousName,
      digest: verdict.digest,
      previousDigest: verdict.previousDigest,
      findings: findings.map((finding) => finding.code),
    },
  });
}

/** The gate over a connection's trust. */
export function createTrustGate(trust: ToolTrust): TrustGate {
  const blocked = (server: string, tool: string) => {
    const verdict = trust.verdict(server, tool);
    return verdict !== undefined && !verdict.usable ? verdict : undefined;
  };
  return {
    blocked,
    check(server, tool) {
      const verdict = blocked(server, tool);
      if (verdict !== undefined) throw quarantinedError(verdict);
    },
  };
}

/** The first link of every call of a connection's tools and relays: refuses a quarantined tool. */
export function createTrustLink(gate: TrustGate): ToolCallLink {
  return (call, next) => {
    gate.check(call.server, call.tool);
    return next(call);
  };
}

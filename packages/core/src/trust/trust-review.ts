/**
 * The decision for one server's listing, as a pure function of what it lists, what the store
 * holds for it, the findings and the policy: which tools the model may use, which wait for a
 * person and why, and which records to write. No I/O here, so every case is tested directly.
 */

import { detectRenames } from './rename-detection.js';
import { changedParts, type ToolDefinitionPart, type TrustableTool } from './tool-definition-digest.js';
import { severityAtLeast, type ToolFinding } from './tool-finding.js';
import type { ToolTrustRecord, TrustChange } from './tool-trust-store.js';
import type { ResolvedTrustPolicy } from './trust-policy.js';

/** Where a listed tool stands after review. */
export type ToolTrustState = 'trusted' | 'quarantined' | 'rejected';

/** The verdict on one listed tool. */
export interface ToolTrustVerdict {
  server: string;
  tool: string;
  digest: string;
  state: ToolTrustState;
  /** True when the model may see and call it: trusted, or quarantined under `pin: 'warn'`. */
  usable: boolean;
  /** Why it is quarantined or rejected. */
  change?: TrustChange;
  previousDigest?: string;
  previousName?: string;
  parts?: ToolDefinitionPart[];
  /** Every finding on the tool (blocking or not). */
  findings: ToolFinding[];
}

/** A listed tool with its canonical text, digest and findings. */
export interface ReviewedTool {
  tool: TrustableTool;
  definition: string;
  digest: string;
  findings: ToolFinding[];
}

/** What {@link reviewListing} needs. */
export interface ListingReviewInput {
  server: string;
  tools: readonly ReviewedTool[];
  /** Every record the store holds for the server. */
  records: readonly ToolTrustRecord[];
  policy: ResolvedTrustPolicy;
  /** ISO time of the decision. */
  now: string;
}

/** The verdicts, and the records to write. */
export interface ListingReview {
  verdicts: ToolTrustVerdict[];
  writes: ToolTrustRecord[];
}

/** A stable identity of a finding, to tell whether an approval accepted it. */
export function findingKey(finding: ToolFinding): string {
  return `${finding.rule}\u0000${finding.code}\u0000${finding.field}\u0000${finding.excerpt}`;
}

function blocking(findings: readonly ToolFinding[], policy: ResolvedTrustPolicy): ToolFinding[] {
  if (policy.quarantineAt === 'never') return [];
  const threshold = policy.quarantineAt;
  return findings.filter((finding) => severityAtLeast(finding.severity, threshold));
}

/** Decides one server's listing (see the module comment). */
export function reviewListing(input: ListingReviewInput): ListingReview {
  const { server, tools, records, policy, now } = input;
  const byKey = new Map<string, ToolTrustRecord>();
  const approvedByTool = new Map<string, ToolTrustRecord>();
  for (const record of records) {
    byKey.set(`${record.tool}\u0000${record.digest}`, record);
    if (record.status === 'approved') approvedByTool.set(record.tool, record);
  }
  const firstUse = records.length === 0;
  const listed = new Set(tools.map(({ tool }) => tool.name));
  const removed = [...approvedByTool.values()]
    .filter((record) => !listed.has(record.tool))
    .map((record) => ({ name: record.tool, definition: record.definition }));
  const unpinned = tools.filter(
    ({ tool, digest }) => !approvedByTool.has(tool.name) && !byKey.has(`${tool.name}\u0000${digest}`),
  );
  const renames = detectRenames(
    removed,
    unpinned.map(({ tool }) => tool),
  );
  const verdicts: ToolTrustVerdict[] = [];
  const writes: ToolTrustRecord[] = [];
  const quarantine = (reviewed: ReviewedTool, fields: Partial<ToolTrustRecord> & { change: TrustChange }) => {
    const record: ToolTrustRecord = {
      server,
      tool: reviewed.tool.name,
      digest: reviewed.digest,
      definition: reviewed.definition,
      status: 'pending',
      findings: reviewed.findings,
      decidedAt: now,
      ...fields,
    };
    writes.push(record);
    verdicts.push(verdictOf(record, reviewed, policy));
  };
  for (const reviewed of tools) {
    const { tool, digest, findings } = reviewed;
    const own = byKey.get(`${tool.name}\u0000${digest}`);
    const stop = blocking(findings, policy);
    if (own?.status === 'approved') {
      const accepted = new Set((own.findings ?? []).map(findingKey));
      const fresh = stop.filter((finding) => !accepted.has(findingKey(finding)));
      if (fresh.length === 0)
        verdicts.push({ server, tool: tool.name, digest, state: 'trusted', usable: true, findings });
      else if (policy.pin === 'warn')
        verdicts.push({
          server,
          tool: tool.name,
          digest,
          state: 'quarantined',
          usable: true,
          change: 'finding',
          findings,
        });
      else quarantine(reviewed, { change: 'finding' });
      continue;
    }
    if (own !== undefined) {
      verdicts.push(verdictOf(own, reviewed, policy));
      continue;
    }
    if (firstUse) {
      if (policy.newServers === 'quarantine') quarantine(reviewed, { change: 'new-server' });
      else if (stop.length > 0) quarantine(reviewed, { change: 'finding' });
      else {
        const record: ToolTrustRecord = {
          server,
          tool: tool.name,
          digest,
          definition: reviewed.definition,
          status: 'approved',
          findings,
          decidedAt: now,
          decidedBy: 'first-use',
        };
        writes.push(record);
        verdicts.push({ server, tool: tool.name, digest, state: 'trusted', usable: true, findings });
      }
      continue;
    }
    const pinned = approvedByTool.get(tool.name);
    if (pinned !== undefined) {
      quarantine(reviewed, {
        change: 'changed',
        previousDigest: pinned.digest,
        parts: changedParts(pinned.definition, reviewed.definition),
      });
      continue;
    }
    const previousName = renames.get(tool.name);
    if (previousName !== undefined) quarantine(reviewed, { change: 'renamed', previousName });
    else quarantine(reviewed, { change: 'new-tool' });
  }
  return { verdicts, writes };
}

function verdictOf(
  record: ToolTrustRecord,
  reviewed: ReviewedTool,
  policy: ResolvedTrustPolicy,
): ToolTrustVerdict {
  const verdict: ToolTrustVerdict = {
    server: record.server,
    tool: record.tool,
    digest: record.digest,
    state:
      record.status === 'rejected' ? 'rejected' : record.status === 'approved' ? 'trusted' : 'quarantined',
    usable: record.status === 'approved' || (record.status === 'pending' && policy.pin === 'warn'),
    findings: reviewed.findings,
  };
  if (record.change !== undefined) verdict.change = record.change;
  if (record.previousDigest !== undefined) verdict.previousDigest = record.previousDigest;
  if (record.previousName !== undefined) verdict.previousName = record.previousName;
  if (record.parts !== undefined) verdict.parts = record.parts;
  return verdict;
}

/**
 * Tool trust as the page reviews it: what the connection's trust holds back (pending, and rejected
 * while still listed), each with its diff against the pinned definition and its findings — the
 * flagged span cut out of its field's text so the page can highlight it — and the approve and
 * reject decisions, through the connection's `trust` API. Everything leaves through the session's
 * redaction; a `trust` event tells the page when the list changed.
 */
import type { ConnectionTrust, McpConnection } from '@switchboard/client';
import { type ToolFinding, type ToolTrustRecord, visibleText } from '@switchboard/core';
import type {
  UiEvent,
  UiTrustDecision,
  UiTrustDecisionRequest,
  UiTrustFinding,
  UiTrustReview,
} from './ui-api.js';
import { UiError, UiErrorCode } from './ui-error.js';
import type { UiRedaction } from './ui-redaction.js';

/** The page's view of tool trust. */
export interface SessionTrust {
  reviews(): Promise<UiTrustReview[]>;
  approve(request: UiTrustDecisionRequest): Promise<UiTrustDecision>;
  reject(request: UiTrustDecisionRequest): Promise<UiTrustDecision>;
  /** Stops publishing trust events. */
  close(): void;
}

/** Characters of context shown either side of a flagged span. */
const contextLength = 80;
/** The longest flagged span shown whole. */
const flaggedLength = 300;

/** Creates the trust view over the connection, publishing a `trust` event on each change. */
export function createSessionTrust(
  connection: McpConnection,
  redaction: UiRedaction,
  publish: (event: UiEvent) => void,
): SessionTrust {
  const trust = connection.trust;
  const stop = trust.onEvent((event) => {
    // A finding below the blocking severity changes nothing the page lists.
    if (event.type !== 'findings') publish({ type: 'trust' });
  });
  const decide = async (
    decision: UiTrustDecision['decision'],
    request: UiTrustDecisionRequest,
  ): Promise<UiTrustDecision> => {
    const target = {
      server: request.server,
      ...(request.tool === undefined ? {} : { tool: request.tool }),
      ...(request.digest === undefined ? {} : { digest: request.digest }),
    };
    const records =
      decision === 'approved'
        ? await trust.approve(target, { by: 'switchboard ui' })
        : await trust.reject(target, { by: 'switchboard ui' });
    if (records.length === 0) {
      const what =
        request.tool === undefined
          ? `server "${request.server}"`
          : `tool "${request.tool}" of "${request.server}"`;
      throw new UiError({
        code: UiErrorCode.NotFound,
        message: `Nothing waits for review for ${what}: it may have been decided already (reload the list).`,
      });
    }
    return {
      decision,
      records: records.map(({ server, tool, digest, status }) => ({ server, tool, digest, status })),
    };
  };
  return {
    reviews: async () => redaction.value(await readReviews(trust)),
    approve: (request) => decide('approved', request),
    reject: (request) => decide('rejected', request),
    close: stop,
  };
}

/** The pending records, and the rejected ones a server still lists, with their diffs. */
async function readReviews(trust: ConnectionTrust): Promise<UiTrustReview[]> {
  const records = await trust.records();
  const rejectedListed = new Set(
    trust
      .verdicts()
      .filter((verdict) => verdict.state === 'rejected')
      .map((verdict) => `${verdict.server}\u0000${verdict.digest}`),
  );
  const shown = records.filter(
    (record) =>
      record.status === 'pending' ||
      (record.status === 'rejected' && rejectedListed.has(`${record.server}\u0000${record.digest}`)),
  );
  const reviews: UiTrustReview[] = [];
  for (const record of shown) {
    const [diff] = await trust.diff({ server: record.server, tool: record.tool, digest: record.digest });
    reviews.push(reviewOf(record, diff?.pinned?.digest, diff?.diff.lines ?? []));
  }
  return reviews.sort((a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool));
}

function reviewOf(
  record: ToolTrustRecord,
  pinnedDigest: string | undefined,
  diff: UiTrustReview['diff'],
): UiTrustReview {
  return {
    server: record.server,
    tool: record.tool,
    digest: record.digest,
    status: record.status === 'rejected' ? 'rejected' : 'pending',
    ...(record.change === undefined ? {} : { change: record.change }),
    ...(record.parts === undefined ? {} : { parts: [...record.parts] }),
    ...(record.previousName === undefined ? {} : { previousName: record.previousName }),
    ...(pinnedDigest === undefined ? {} : { pinnedDigest }),
    decidedAt: record.decidedAt,
    diff,
    findings: (record.findings ?? []).map((finding) => findingOf(finding, record.definition)),
  };
}

/** A finding with its span cut out of the field's text (the excerpt alone when the text is not found). */
function findingOf(finding: ToolFinding, definition: string): UiTrustFinding {
  const { rule, code, severity, field, message } = finding;
  const text = fieldText(definition, field);
  const spanFits = text !== undefined && finding.end <= text.length && finding.start <= finding.end;
  if (!spanFits)
    return { rule, code, severity, field, message, before: '', flagged: finding.excerpt, after: '' };
  const shown = (part: string) => visibleText(part, { lineBreaks: 'space' });
  const flagged = shown(text.slice(finding.start, finding.end));
  const start = Math.max(0, finding.start - contextLength);
  return {
    rule,
    code,
    severity,
    field,
    message,
    before: `${start > 0 ? '…' : ''}${shown(text.slice(start, finding.start))}`,
    flagged: flagged.length > flaggedLength ? `${flagged.slice(0, flaggedLength)}…` : flagged,
    after: `${shown(text.slice(finding.end, finding.end + contextLength))}${finding.end + contextLength < text.length ? '…' : ''}`,
  };
}

/** The text at a finding's field path (`inputSchema.properties.path.description`) in a definition. */
function fieldText(definition: string, field: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(definition);
  } catch {
    return undefined;
  }
  // Keys may hold dots: at each step the longest key that the path starts with wins.
  let rest = field;
  while (rest !== '') {
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    const key = Object.keys(record)
      .filter((candidate) => rest === candidate || rest.startsWith(`${candidate}.`))
      .sort((a, b) => b.length - a.length)[0];
    if (key === undefined) return undefined;
    value = record[key];
    rest = rest.slice(key.length + 1);
  }
  return typeof value === 'string' ? value : undefined;
}

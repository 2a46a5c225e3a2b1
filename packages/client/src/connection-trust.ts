/**
 * The `trust` API of a connection: what is quarantined and why, a readable diff of each change,
 * approving and rejecting, and the events — over core's `ToolTrust`, with the connection's store
 * and logger. Digests use `node:crypto` (core's default is a portable hash, ~20× slower).
 */
import { createHash } from 'node:crypto';
import {
  createToolTrust,
  type Logger,
  safeTrustExcerpt,
  type ToolChecker,
  type ToolFinding,
  type ToolTrust,
  type ToolTrustEvent,
  type ToolTrustPolicy,
  type ToolTrustRecord,
  type ToolTrustStore,
  type ToolTrustTarget,
  type ToolTrustVerdict,
} from '@switchboard/core';
import type { TrustReviewTracer } from './telemetry/trust-review-tracer.js';
import { type DefinitionDiff, diffDefinitions } from './trust-diff.js';

/** A pending (or given) definition beside the pinned one it would replace, and their diff. */
export interface ToolTrustDiff {
  /** The definition under review. */
  record: ToolTrustRecord;
  /** The pinned definition it changes (the renamed tool's, for a rename); absent for a new tool. */
  pinned?: ToolTrustRecord;
  diff: DefinitionDiff;
}

/** The trust API of a connection (`connection.trust`). */
export interface ConnectionTrust {
  /** Definitions waiting for a person (quarantined), of one server or all. */
  pending(filter?: { server?: string }): Promise<ToolTrustRecord[]>;
  /** Every trust record (approved, pending, rejected), of one server or all. */
  records(filter?: { server?: string }): Promise<ToolTrustRecord[]>;
  /** The verdict on each listed tool, of one server or all. */
  verdicts(server?: string): ToolTrustVerdict[];
  /** Every finding on the listed tools, of one server or all. */
  findings(server?: string): ToolFinding[];
  /** The diff of each pending definition (one tool's, or one digest's) against what is pinned. */
  diff(target: ToolTrustTarget): Promise<ToolTrustDiff[]>;
  /** Approves definitions: the tools become usable (and listed again). */
  approve(target: ToolTrustTarget, options?: { by?: string }): Promise<ToolTrustRecord[]>;
  /** Rejects definitions: the tools stay hidden and refused, and are no longer pending. */
  reject(target: ToolTrustTarget, options?: { by?: string }): Promise<ToolTrustRecord[]>;
  /** Adds a listener of trust events; returns its unsubscribe function. */
  onEvent(listener: (event: ToolTrustEvent) => void): () => void;
}

/** Options of {@link createConnectionTrust}. */
export interface ConnectionTrustOptions {
  store?: ToolTrustStore | undefined;
  policy?: ToolTrustPolicy | undefined;
  serverPolicy: (server: string) => ToolTrustPolicy | undefined;
  checker?: ToolChecker | undefined;
  logger: Logger;
  /** Traces each listing's review (findings as span events). @default untraced */
  traceReview?: TrustReviewTracer | undefined;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The connection's trust engine and its public API. */
export function createConnectionTrust(options: ConnectionTrustOptions): {
  engine: ToolTrust;
  api: ConnectionTrust;
} {
  const untraced = createToolTrust({
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    serverPolicy: options.serverPolicy,
    ...(options.checker === undefined ? {} : { checker: options.checker }),
    sha256,
    logger: options.logger,
  });
  const { traceReview } = options;
  const engine: ToolTrust =
    traceReview === undefined
      ? untraced
      : {
          ...untraced,
          review: (server, tools) => traceReview(server, tools.length, () => untraced.review(server, tools)),
        };
  engine.onEvent((event) => logEvent(options.logger, event));
  const api: ConnectionTrust = {
    pending: (filter) => engine.pending(filter),
    records: (filter) => engine.records(filter),
    verdicts: (server) => engine.verdicts(server),
    findings: (server) => engine.verdicts(server).flatMap((verdict) => verdict.findings),
    async diff(target) {
      const records = await engine.records({ server: target.server });
      const under = records.filter(
        (record) =>
          (target.tool === undefined || record.tool === target.tool) &&
          (target.digest === undefined ? record.status === 'pending' : record.digest === target.digest),
      );
      return under.map((record) => {
        const pinned = records.find(
          (other) => other.status === 'approved' && other.tool === (record.previousName ?? record.tool),
        );
        const short = (digest: string) => digest.replace(/^sha256:/, '').slice(0, 12);
        return {
          record,
          ...(pinned === undefined ? {} : { pinned }),
          diff: diffDefinitions(pinned?.definition, record.definition, {
            before: pinned === undefined ? '(not pinned)' : `${pinned.tool} (pinned ${short(pinned.digest)})`,
            after: `${record.tool} (offered ${short(record.digest)})`,
          }),
        };
      });
    },
    approve: (target, decide) => engine.approve(target, decide),
    reject: (target, decide) => engine.reject(target, decide),
    onEvent: (listener) => engine.onEvent(listener),
  };
  return { engine, api };
}

/** A finding as the log shows it: rule, code, severity, where, and the flagged span (masked, cut). */
function loggedFinding(finding: ToolFinding) {
  const { rule, code, severity, field, start, end, excerpt } = finding;
  return { rule, code, severity, field, start, end, excerpt: safeTrustExcerpt(excerpt) };
}

/** One log line per event that a person should hear of (never a definition's text: names, codes and the flagged spans). */
function logEvent(logger: Logger, event: ToolTrustEvent): void {
  switch (event.type) {
    case 'quarantined':
    case 'warned': {
      const { verdict } = event;
      logger.warn(
        {
          server: verdict.server,
          tool: verdict.tool,
          change: verdict.change,
          parts: verdict.parts,
          previousName: verdict.previousName,
          findings: verdict.findings.map(loggedFinding),
        },
        event.type === 'quarantined'
          ? `tool "${verdict.tool}" of "${verdict.server}" quarantined (${verdict.change}): hidden from the model and refused until approved (switchboard tools diff / approve)`
          : `tool "${verdict.tool}" of "${verdict.server}" would be quarantined (${verdict.change}); pin: 'warn' lets it through`,
      );
      return;
    }
    case 'findings':
      logger.info(
        {
          server: event.server,
          tool: event.tool,
          findings: event.findings.map(loggedFinding),
        },
        `tool "${event.tool}" of "${event.server}" has trust findings below the blocking severity`,
      );
      return;
    case 'released':
      logger.info(
        { server: event.verdict.server, tool: event.verdict.tool },
        `tool "${event.verdict.tool}" of "${event.verdict.server}" is trusted again`,
      );
      return;
    default:
      return;
  }
}

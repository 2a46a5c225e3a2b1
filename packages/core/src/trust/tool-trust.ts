/**
 * Trust on first use for a connection's tools. Each server's listing is reviewed against the
 * pinned definitions in the store: an unchanged tool passes; a changed, new or renamed tool of a
 * known server — and any tool with a blocking finding — is quarantined under the policy until a
 * person approves it. The verdicts are kept in memory for the calls' gate (a Map read), and
 * listeners hear every change of state: quarantined, warned, approved, rejected, released.
 */

import { type Logger, silentLogger } from '../logger.js';
import { SwitchboardError } from '../switchboard-error.js';
import { sameModelVisibleDefinition } from './same-definition.js';
import { createToolChecker, type ToolChecker, type ToolToCheck } from './tool-checker.js';
import {
  canonicalToolDefinition,
  digestDefinitionText,
  type Sha256Hex,
  type TrustableTool,
} from './tool-definition-digest.js';
import type { ToolFinding } from './tool-finding.js';
import {
  createMemoryTrustStore,
  type ToolTrustKey,
  type ToolTrustRecord,
  type ToolTrustStore,
} from './tool-trust-store.js';
import { type ResolvedTrustPolicy, resolveTrustPolicy, type ToolTrustPolicy } from './trust-policy.js';
import { findingKey, type ReviewedTool, reviewListing, type ToolTrustVerdict } from './trust-review.js';

/** Options of {@link createToolTrust}. */
export interface ToolTrustOptions {
  /** Where decisions are kept. @default createMemoryTrustStore() (this process only) */
  store?: ToolTrustStore;
  /** The connection's policy. @default defaultTrustPolicy */
  policy?: ToolTrustPolicy;
  /** Per-server policies, over the connection's. */
  serverPolicy?: (server: string) => ToolTrustPolicy | undefined;
  /** The rules. @default createToolChecker() (the built-in rules) */
  checker?: ToolChecker;
  /** SHA-256 over text, as hex (Node callers pass `node:crypto`'s). @default @noble/hashes */
  sha256?: Sha256Hex;
  /** Where a failed store read or write is reported. @default silentLogger */
  logger?: Logger;
}

/** Something that happened to a tool's trust. */
export type ToolTrustEvent =
  /** A listed tool was quarantined (hidden and refused), or rejected. */
  | { type: 'quarantined'; verdict: ToolTrustVerdict }
  /** Under `pin: 'warn'`: a tool that `block` would quarantine, left usable. */
  | { type: 'warned'; verdict: ToolTrustVerdict }
  /** A usable tool has findings below the blocking severity (reported once per definition). */
  | { type: 'findings'; server: string; tool: string; findings: ToolFinding[] }
  /** A quarantined tool became usable (approved here, or on another replica). */
  | { type: 'released'; verdict: ToolTrustVerdict }
  /** A person approved a definition. */
  | { type: 'approved'; record: ToolTrustRecord }
  /** A person rejected a definition. */
  | { type: 'rejected'; record: ToolTrustRecord };

/** Which records an approval or rejection covers. */
export interface ToolTrustTarget {
  server: string;
  /** One tool. @default every pending tool of the server */
  tool?: string;
  /** One definition. @default the one the server lists now, or every pending one */
  digest?: string;
}

/** Trust for one connection. */
export interface ToolTrust {
  /** Reviews one server's listing; resolves with a verdict per tool. */
  review(server: string, tools: readonly TrustableTool[]): Promise<ToolTrustVerdict[]>;
  /** The verdict on a listed tool (a Map read, for the call gate); undefined when not reviewed. */
  verdict(server: string, tool: string): ToolTrustVerdict | undefined;
  /** Every verdict, of one server or all. */
  verdicts(server?: string): ToolTrustVerdict[];
  /** The records waiting for review (pending), of one server or all. */
  pending(filter?: { server?: string }): Promise<ToolTrustRecord[]>;
  /** Every record, of one server or all. */
  records(filter?: { server?: string }): Promise<ToolTrustRecord[]>;
  /** Approves definitions: pins them, and the tools become usable. Resolves with the approved records. */
  approve(target: ToolTrustTarget, options?: { by?: string }): Promise<ToolTrustRecord[]>;
  /** Rejects definitions: the tools stay blocked and are no longer pending. */
  reject(target: ToolTrustTarget, options?: { by?: string }): Promise<ToolTrustRecord[]>;
  /** Reads the store again and re-reviews the last listings (after another writer changed it). */
  refresh(server?: string): Promise<void>;
  /** Forgets a server's verdicts (it left the connection); its records stay. */
  forget(server: string): void;
  /** The policy in force for a server. */
  policyOf(server: string): ResolvedTrustPolicy;
  /** Resolves when every review under way, and the re-reviews they started, are done. */
  settled(): Promise<void>;
  /** Adds a listener; returns its unsubscribe function. */
  onEvent(listener: (event: ToolTrustEvent) => void): () => void;
  /** Stops listening to the store. */
  close(): void;
}

/** A reviewed tool as cached between listings: its findings, and which of them only its own text decides. */
type CachedReview = ReviewedTool & { toolFindings: ToolFinding[]; namesVersion: number };

interface Listed {
  tools: readonly TrustableTool[];
  reviewed: Map<string, CachedReview>;
  /** The reviews in listed order, for the in-order fast path of `prepare`; undefined when names repeat. */
  order: CachedReview[] | undefined;
}

/** Creates the trust of one connection. */
export function createToolTrust(options: ToolTrustOptions = {}): ToolTrust {
  const store = options.store ?? createMemoryTrustStore();
  const checker = options.checker ?? createToolChecker();
  const logger = options.logger ?? silentLogger;
  const listings = new Map<string, Listed>();
  const verdicts = new Map<string, Map<string, ToolTrustVerdict>>();
  const listeners = new Set<(event: ToolTrustEvent) => void>();
  // Findings depend on the other servers' names (shadowing, look-alikes): a change of the names
  // on the connection makes every cached finding stale.
  let namesVersion = 0;
  const names = new Map<string, string>();
  // Each server's names in the order last listed: the fast path of `noteNames`.
  const listedOrder = new Map<string, string[]>();
  // Each server's records as last read or written; dropped when another writer changes them.
  const recordCache = new Map<string, ToolTrustRecord[]>();
  const lastPolicy = new Map<string, string>();
  const policyKey = (policy: ResolvedTrustPolicy) =>
    `${policy.pin}/${policy.newServers}/${policy.quarantineAt}`;
  // Reviews of one server run one at a time, so records written by one are read by the next.
  const queues = new Map<string, Promise<unknown>>();

  const policyOf = (server: string) => resolveTrustPolicy(options.policy, options.serverPolicy?.(server));

  function emit(event: ToolTrustEvent): void {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.error({ error: (error as Error).message, event: event.type }, 'tool trust listener threw');
      }
    }
  }

  function serialized<T>(server: string, task: () => Promise<T>): Promise<T> {
    const previous = queues.get(server) ?? Promise.resolve();
    const next = previous.then(task, task);
    queues.set(
      server,
      next.catch(() => undefined),
    );
    return next;
  }

  /** Records the server's names; true when they changed (the other servers' findings are then stale). */
  function noteNames(server: string, tools: readonly TrustableTool[]): boolean {
    // A re-listing usually names the same tools in the same order: compared in place, that costs
    // no sort and no string (sorting and joining 1,000 names was 15 % of a re-listing's review).
    const last = listedOrder.get(server);
    if (
      last !== undefined &&
      last.length === tools.length &&
      tools.every((tool, index) => tool.name === last[index])
    )
      return false;
    listedOrder.set(
      server,
      tools.map((tool) => tool.name),
    );
    const key = tools
      .map((tool) => tool.name)
      .sort()
      .join('\u0000');
    if (names.get(server) === key) return false;
    names.set(server, key);
    namesVersion++;
    return true;
  }

  const connectionChecker = createToolChecker({
    rules: checker.rules.filter((rule) => rule.scope !== 'tool'),
  });

  /**
   * True when `tools` are the last listing's definitions, in the same order, none of their findings
   * stale: each cached review then stands, and takes the new object. The common re-listing, tested
   * index by index with no Map lookups and no new Map: with `sameJson` on `Object.keys`, a
   * re-listing's review of 1,000 catalogue tools went from 0.7–1.0 ms to 0.41–0.60 ms (one run,
   * alternating builds).
   */
  function sameInOrder(order: CachedReview[] | undefined, tools: readonly TrustableTool[]): boolean {
    if (order === undefined || order.length !== tools.length) return false;
    for (let index = 0; index < tools.length; index++) {
      const entry = order[index] as CachedReview;
      const tool = tools[index] as TrustableTool;
      if (entry.namesVersion !== namesVersion || !sameModelVisibleDefinition(entry.tool, tool)) return false;
    }
    for (let index = 0; index < tools.length; index++)
      (order[index] as CachedReview).tool = tools[index] as TrustableTool;
    return true;
  }

  /** The listing's tools with their texts, digests and findings; `same` when nothing differs from the last review. */
  async function prepare(
    server: string,
    tools: readonly TrustableTool[],
  ): Promise<{ reviewed: ReviewedTool[]; same: boolean }> {
    const last = listings.get(server);
    if (last !== undefined && sameInOrder(last.order, tools)) {
      listings.set(server, { tools, reviewed: last.reviewed, order: last.order });
      return { reviewed: last.order as CachedReview[], same: true };
    }
    const cache = last?.reviewed ?? new Map<string, CachedReview>();
    const reviewed = new Map<string, CachedReview>();
    // Tools whose text changed are checked by every rule; unchanged ones whose neighbours changed
    // only by the rules that read the neighbours.
    const changed = new Set<string>();
    const restale = new Set<string>();
    for (const tool of tools) {
      const cached = cache.get(tool.name);
      // The common case first: the very definition reviewed last time, compared without writing its text.
      if (cached !== undefined && sameModelVisibleDefinition(cached.tool, tool)) {
        cached.tool = tool;
        reviewed.set(tool.name, cached);
        if (cached.namesVersion !== namesVersion) restale.add(tool.name);
        continue;
      }
      const definition = canonicalToolDefinition(tool);
      if (cached !== undefined && cached.definition === definition) {
        cached.tool = tool;
        reviewed.set(tool.name, cached);
        if (cached.namesVersion !== namesVersion) restale.add(tool.name);
      } else {
        const digest = digestDefinitionText(definition, options.sha256);
        reviewed.set(tool.name, {
          tool,
          definition,
          digest,
          findings: [],
          toolFindings: [],
          namesVersion: -1,
        });
        changed.add(tool.name);
      }
    }
    const order =
      reviewed.size === tools.length
        ? tools.map((tool) => reviewed.get(tool.name) as CachedReview)
        : undefined;
    listings.set(server, { tools, reviewed, order });
    if (changed.size === 0 && restale.size === 0)
      return { reviewed: [...reviewed.values()], same: reviewed.size === cache.size };
    const all: ToolToCheck[] = [];
    for (const [name, listed] of listings) for (const tool of listed.tools) all.push({ server: name, tool });
    const [full, connection] = await Promise.all([
      changed.size === 0
        ? []
        : checker.check(all, { only: (owner, name) => owner === server && changed.has(name) }),
      restale.size === 0
        ? []
        : connectionChecker.check(all, { only: (owner, name) => owner === server && restale.has(name) }),
    ]);
    const scopes = new Map(checker.rules.map((rule) => [rule.name, rule.scope ?? 'connection']));
    for (const name of [...changed, ...restale]) {
      const entry = reviewed.get(name) as CachedReview;
      if (changed.has(name)) entry.toolFindings = [];
      entry.findings = [...entry.toolFindings];
      entry.namesVersion = namesVersion;
    }
    for (const finding of full) {
      const entry = reviewed.get(finding.tool) as CachedReview;
      if (scopes.get(finding.rule) === 'tool') entry.toolFindings.push(finding);
      entry.findings.push(finding);
    }
    for (const finding of connection) (reviewed.get(finding.tool) as CachedReview).findings.push(finding);
    return { reviewed: [...reviewed.values()], same: false };
  }

  /** The server's records: from memory, read again after a write elsewhere (`onTrustChange`, `refresh`). */
  async function recordsOf(server: string): Promise<ToolTrustRecord[]> {
    let records = recordCache.get(server);
    if (records === undefined) {
      records = await store.listTrust({ server });
      recordCache.set(server, records);
    }
    return records;
  }

  function remember(server: string, writes: readonly ToolTrustRecord[]): void {
    const records = recordCache.get(server);
    if (records === undefined) return;
    const written = new Set(writes.map((record) => `${record.tool}\u0000${record.digest}`));
    recordCache.set(server, [
      ...records.filter((record) => !written.has(`${record.tool}\u0000${record.digest}`)),
      ...writes,
    ]);
  }

  function publish(server: string, next: readonly ToolTrustVerdict[]): void {
    const before = verdicts.get(server) ?? new Map<string, ToolTrustVerdict>();
    const after = new Map(next.map((verdict) => [verdict.tool, verdict]));
    verdicts.set(server, after);
    for (const verdict of next) {
      const previous = before.get(verdict.tool);
      const same = previous !== undefined && previous.digest === verdict.digest;
      if (verdict.state !== 'trusted') {
        if (same && previous.state === verdict.state && previous.usable === verdict.usable) continue;
        emit(verdict.usable ? { type: 'warned', verdict } : { type: 'quarantined', verdict });
        continue;
      }
      if (previous !== undefined && !previous.usable) emit({ type: 'released', verdict });
      const reported = same ? new Set(previous.findings.map(findingKey)) : new Set<string>();
      const fresh = verdict.findings.filter((finding) => !reported.has(findingKey(finding)));
      if (fresh.length > 0) emit({ type: 'findings', server, tool: verdict.tool, findings: fresh });
    }
  }

  async function reviewNow(server: string, tools: readonly TrustableTool[]): Promise<ToolTrustVerdict[]> {
    const policy = policyOf(server);
    if (policy.pin === 'off') {
      const open = tools.map((tool) => ({
        server,
        tool: tool.name,
        digest: '',
        state: 'trusted' as const,
        usable: true,
        findings: [],
      }));
      verdicts.set(server, new Map(open.map((verdict) => [verdict.tool, verdict])));
      return open;
    }
    const namesChanged = noteNames(server, tools);
    const { reviewed, same } = await prepare(server, tools);
    const fresh = !recordCache.has(server);
    const records = await recordsOf(server);
    const previous = verdicts.get(server);
    // The common re-listing: the same definitions, the same records, the same policy — the same verdicts.
    if (
      same &&
      !fresh &&
      previous !== undefined &&
      previous.size === reviewed.length &&
      lastPolicy.get(server) === policyKey(policy)
    )
      return [...previous.values()];
    lastPolicy.set(server, policyKey(policy));
    const { verdicts: next, writes } = reviewListing({
      server,
      tools: reviewed,
      records,
      policy,
      now: new Date().toISOString(),
    });
    if (writes.length > 0) {
      await store.putTrust(writes);
      remember(server, writes);
    }
    publish(server, next);
    // Not awaited: two servers re-reviewing each other would wait on each other's queue.
    // `settled()` waits for these too.
    if (namesChanged)
      for (const other of listings.keys()) if (other !== server) background(rereview(other), other);
    return next;
  }

  function background(task: Promise<unknown>, server: string): void {
    task.catch((error: unknown) =>
      logger.warn(
        { server, error: (error as Error).message },
        'tool trust: a re-review failed; the last verdicts stand',
      ),
    );
  }

  async function decide(
    target: ToolTrustTarget,
    status: 'approved' | 'rejected',
    by: string | undefined,
  ): Promise<ToolTrustRecord[]> {
    if (typeof target?.server !== 'string' || target.server === '') {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool trust: ${status === 'approved' ? 'approve' : 'reject'} needs { server, tool?, digest? } (got ${JSON.stringify(target)}).`,
      });
    }
    const { server, tool } = target;
    const records = await store.listTrust({ server });
    const offered = tool === undefined ? undefined : verdicts.get(server)?.get(tool)?.digest;
    const digest = target.digest ?? offered;
    const chosen = records.filter(
      (record) =>
        record.status !== status &&
        (tool === undefined || record.tool === tool) &&
        (digest !== undefined && tool !== undefined ? record.digest === digest : record.status === 'pending'),
    );
    if (chosen.length === 0) return [];
    const now = new Date().toISOString();
    const decided = chosen.map((record) => {
      const current = verdicts.get(server)?.get(record.tool);
      // What the person accepts: the findings recorded when it was quarantined (what `tools diff`
      // and the ui showed) and those seen here now. A process that decides with fewer servers
      // connected (`switchboard tools approve calc`) sees none of the cross-server findings
      // (shadowing, look-alike names) that the quarantining process saw.
      const findings = acceptedFindings(
        record.findings ?? [],
        current?.digest === record.digest ? current.findings : [],
      );
      return { ...record, status, findings, decidedAt: now, ...(by === undefined ? {} : { decidedBy: by }) };
    });
    if (status === 'approved') {
      // One pinned definition per tool: the approved one replaces the one it changed.
      const replaced: ToolTrustKey[] = records
        .filter(
          (record) =>
            record.status === 'approved' &&
            decided.some((entry) => entry.tool === record.tool && entry.digest !== record.digest),
        )
        .map((record) => ({ server, tool: record.tool, digest: record.digest }));
      if (replaced.length > 0) await store.removeTrust(replaced);
    }
    await store.putTrust(decided);
    recordCache.delete(server);
    for (const record of decided)
      emit(status === 'approved' ? { type: 'approved', record } : { type: 'rejected', record });
    await rereview(server);
    return decided;
  }

  function rereview(server: string, reread = false): Promise<unknown> {
    if (reread) recordCache.delete(server);
    const listing = listings.get(server);
    if (listing === undefined) return Promise.resolve();
    return serialized(server, () => reviewNow(server, listing.tools));
  }

  const unsubscribe = store.onTrustChange?.((server) => background(rereview(server, true), server));

  return {
    review: (server, tools) => serialized(server, () => reviewNow(server, tools)),
    verdict: (server, tool) => verdicts.get(server)?.get(tool),
    verdicts(server) {
      if (server !== undefined) return [...(verdicts.get(server)?.values() ?? [])];
      return [...verdicts.values()].flatMap((map) => [...map.values()]);
    },
    async pending(filter) {
      return (await store.listTrust(filter)).filter((record) => record.status === 'pending');
    },
    async records(filter) {
      return store.listTrust(filter);
    },
    approve: (target, decideOptions) => decide(target, 'approved', decideOptions?.by),
    reject: (target, decideOptions) => decide(target, 'rejected', decideOptions?.by),
    async refresh(server) {
      const servers = server === undefined ? [...listings.keys()] : [server];
      await Promise.all(servers.map((name) => rereview(name, true)));
    },
    forget(server) {
      listings.delete(server);
      verdicts.delete(server);
      recordCache.delete(server);
      listedOrder.delete(server);
      if (names.delete(server)) namesVersion++;
    },
    policyOf,
    async settled() {
      // A review may queue others; wait until no queue grows.
      for (;;) {
        const tails = [...queues.values()];
        await Promise.all(tails);
        if (
          [...queues.values()].every((tail, index) => tail === tails[index]) &&
          queues.size === tails.length
        )
          return;
      }
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      unsubscribe?.();
      listeners.clear();
    },
  };
}

/** The findings of both lists, each once (by {@link findingKey}). */
function acceptedFindings(recorded: readonly ToolFinding[], seen: readonly ToolFinding[]): ToolFinding[] {
  const byKey = new Map<string, ToolFinding>();
  for (const finding of [...seen, ...recorded])
    if (!byKey.has(findingKey(finding))) byKey.set(findingKey(finding), finding);
  return [...byKey.values()];
}

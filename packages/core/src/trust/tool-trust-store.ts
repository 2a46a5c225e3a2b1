/**
 * Where trust decisions live: per server, per tool, per definition digest — the pinned (approved)
 * definitions, the ones waiting for review, the rejected ones. Behind a small versioned interface,
 * so that memory (one process), a SQLite file (one machine) or PostgreSQL (replicas sharing one
 * decision) can stand behind it.
 */

import type { ToolDefinitionPart } from './tool-definition-digest.js';
import type { ToolFinding } from './tool-finding.js';

/** Where a definition stands: pinned, waiting for a person, or refused. */
export type TrustStatus = 'approved' | 'pending' | 'rejected';

/** Why a definition waits for review. */
export type TrustChange =
  /** The server was never seen before and the policy quarantines new servers. */
  | 'new-server'
  /** A tool the server did not list before. */
  | 'new-tool'
  /** A pinned tool whose definition changed (a rug pull, or an honest update). */
  | 'changed'
  /** A pinned tool's definition under another name. */
  | 'renamed'
  /** A finding at the policy's blocking severity. */
  | 'finding';

/** One trust decision about one definition of one tool. */
export interface ToolTrustRecord {
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** Digest of the model-visible definition (`sha256:…`). */
  digest: string;
  /** The canonical JSON of the definition, for diffs and review. */
  definition: string;
  status: TrustStatus;
  /** Why it was quarantined; absent on a definition trusted on first use. */
  change?: TrustChange;
  /** The pinned digest this one would replace (`changed`). */
  previousDigest?: string;
  /** The pinned tool it seems to be, renamed (`renamed`). */
  previousName?: string;
  /** The parts that differ from the pinned definition (`changed`). */
  parts?: ToolDefinitionPart[];
  /**
   * The findings on the definition when it was recorded: on a pending one, what a reviewer should
   * look at; on an approved one, what was accepted with it (a new finding is not).
   */
  findings?: ToolFinding[];
  /** ISO time of the decision. */
  decidedAt: string;
  /** Who decided (`first-use`, `cli`, `ui`, an API caller's label). */
  decidedBy?: string;
}

/** Identifies a record, or with no digest all records of a tool. */
export interface ToolTrustKey {
  server: string;
  tool: string;
  digest?: string;
}

/** A value now, or a promise of it (as in `RegistryStore`; repeated so that this file imports nothing of it). */
type MaybePromise<T> = T | Promise<T>;

/** Called when another writer (another replica) changed the trust records of a server. */
export type ToolTrustChangeListener = (server: string) => void;

/**
 * Persistence of trust decisions (interface version 1). Records are keyed by (server, tool,
 * digest); writing one replaces the record of the same key.
 */
export interface ToolTrustStore {
  /** Version of this interface the implementation follows. */
  readonly specificationVersion: 'v1';
  /** Records, of one server or all. */
  listTrust(filter?: { server?: string }): MaybePromise<ToolTrustRecord[]>;
  /** Writes records (replacing those of the same key). */
  putTrust(records: readonly ToolTrustRecord[]): MaybePromise<void>;
  /** Removes records: one digest's, or with no digest every record of the tool. */
  removeTrust(keys: readonly ToolTrustKey[]): MaybePromise<void>;
  /**
   * Calls `listener` when another writer changes a server's records (replicas sharing a
   * database). Optional: a store only one process writes needs none. Returns the unsubscribe function.
   */
  onTrustChange?(listener: ToolTrustChangeListener): () => void;
}

function keyOf(record: { server: string; tool: string; digest: string }): string {
  return `${record.server}\u0000${record.tool}\u0000${record.digest}`;
}

/** A trust store in memory: decisions last as long as the process (the default without a store). */
export function createMemoryTrustStore(): ToolTrustStore {
  const records = new Map<string, ToolTrustRecord>();
  return {
    specificationVersion: 'v1',
    listTrust(filter) {
      const all = [...records.values()];
      return (
        filter?.server === undefined ? all : all.filter((record) => record.server === filter.server)
      ).map((record) => structuredClone(record));
    },
    putTrust(written) {
      for (const record of written) records.set(keyOf(record), { ...record });
    },
    removeTrust(keys) {
      for (const key of keys) {
        if (key.digest !== undefined) {
          records.delete(keyOf({ server: key.server, tool: key.tool, digest: key.digest }));
          continue;
        }
        for (const [id, record] of records)
          if (record.server === key.server && record.tool === key.tool) records.delete(id);
      }
    },
  };
}

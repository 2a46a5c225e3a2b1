/**
 * A trust record as a database row and back, shared by the SQLite and PostgreSQL stores: the
 * columns are the same in both (lists and findings as JSON text).
 */

import type {
  ToolDefinitionPart,
  ToolFinding,
  ToolTrustRecord,
  TrustChange,
  TrustStatus,
} from '@switchboard/core';

/** The columns of a `tool_trust` row. */
export interface TrustRow {
  server: string;
  tool: string;
  digest: string;
  status: string;
  definition: string;
  change: string | null;
  previous_digest: string | null;
  previous_name: string | null;
  parts: string | null;
  findings: string | null;
  decided_at: string | Date;
  decided_by: string | null;
}

/** The row of a record (JSON text for lists; null for absent fields). */
export function toTrustRow(record: ToolTrustRecord): TrustRow {
  return {
    server: record.server,
    tool: record.tool,
    digest: record.digest,
    status: record.status,
    definition: record.definition,
    change: record.change ?? null,
    previous_digest: record.previousDigest ?? null,
    previous_name: record.previousName ?? null,
    parts: record.parts === undefined ? null : JSON.stringify(record.parts),
    findings: record.findings === undefined ? null : JSON.stringify(record.findings),
    decided_at: record.decidedAt,
    decided_by: record.decidedBy ?? null,
  };
}

/** The record of a row. */
export function fromTrustRow(row: TrustRow): ToolTrustRecord {
  const record: ToolTrustRecord = {
    server: row.server,
    tool: row.tool,
    digest: row.digest,
    status: row.status as TrustStatus,
    definition: row.definition,
    decidedAt: row.decided_at instanceof Date ? row.decided_at.toISOString() : row.decided_at,
  };
  if (row.change !== null) record.change = row.change as TrustChange;
  if (row.previous_digest !== null) record.previousDigest = row.previous_digest;
  if (row.previous_name !== null) record.previousName = row.previous_name;
  if (row.parts !== null) record.parts = JSON.parse(row.parts) as ToolDefinitionPart[];
  if (row.findings !== null) record.findings = JSON.parse(row.findings) as ToolFinding[];
  if (row.decided_by !== null) record.decidedBy = row.decided_by;
  return record;
}

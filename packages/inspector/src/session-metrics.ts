/**
 * The page's metrics: the sampled history of each server (latency and calls over time) and the
 * calls per tool — this run's, counted live by the connection, beside earlier runs' from the
 * host's registry store, read once when the session starts.
 */
import type { McpConnection } from '@switchboard/client';
import type { ToolUsage } from '@switchboard/core';
import type { MetricsHistory } from './metrics-history.js';
import type { UiMetrics } from './ui-api.js';

/** Options of {@link readSessionMetrics}. */
export interface SessionMetricsSources {
  connection: McpConnection;
  history: MetricsHistory;
  /** Earlier runs' usage (empty when the host keeps none). */
  storedUsage: readonly ToolUsage[];
}

/** The metrics the page shows now. */
export function readSessionMetrics(sources: SessionMetricsSources): UiMetrics {
  const live = sources.connection.metrics().tools;
  const stored = new Map(sources.storedUsage.map((usage) => [`${usage.server}\u0000${usage.tool}`, usage]));
  const toolCalls: UiMetrics['toolCalls'] = [];
  for (const [server, tools] of Object.entries(live)) {
    for (const [tool, stats] of Object.entries(tools)) {
      const key = `${server}\u0000${tool}`;
      const before = stored.get(key);
      stored.delete(key);
      toolCalls.push({
        server,
        tool,
        calls: stats.calls,
        errors: stats.errors,
        ...(before ? { storedCalls: before.calls } : {}),
      });
    }
  }
  for (const usage of stored.values()) {
    toolCalls.push({
      server: usage.server,
      tool: usage.tool,
      calls: 0,
      errors: 0,
      storedCalls: usage.calls,
    });
  }
  return { series: sources.history.series(), toolCalls };
}

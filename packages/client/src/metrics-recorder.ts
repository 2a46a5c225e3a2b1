/**
 * Per-server and per-tool call metrics. Each tool gets its own counter object up front, so the hot
 * path is two increments and two ring-buffer writes, no map lookups.
 */
import { createLatencyReservoir, type LatencyReservoir } from './latency-reservoir.js';

/** Call statistics of one tool or server. */
export interface CallStats {
  calls: number;
  errors: number;
  /** Median latency in milliseconds over recent calls. */
  p50Ms: number | undefined;
  /** 95th percentile latency in milliseconds over recent calls. */
  p95Ms: number | undefined;
}

/** What `metrics()` returns. */
export interface McpMetrics {
  /** By server name. */
  servers: Record<string, CallStats>;
  /** By server name, then by the tool's name on that server. */
  tools: Record<string, Record<string, CallStats>>;
}

/** Counters of one tool: `record` is the hot-path call. */
export interface ToolCounter {
  record(milliseconds: number, failed: boolean): void;
}

interface Counter {
  calls: number;
  errors: number;
  latency: LatencyReservoir;
}

/** Collects call metrics. */
export interface MetricsRecorder {
  /** The counter of one tool (created on first use, then reused). */
  counter(server: string, tool: string): ToolCounter;
  snapshot(): McpMetrics;
}

/** Creates a metrics recorder keeping `reservoirSize` recent latencies per tool and per server. @default 512 */
export function createMetricsRecorder(reservoirSize = 512): MetricsRecorder {
  const servers = new Map<string, Counter>();
  const tools = new Map<string, Map<string, Counter>>();
  const newCounter = (): Counter => ({ calls: 0, errors: 0, latency: createLatencyReservoir(reservoirSize) });
  const stats = (counter: Counter): CallStats => ({
    calls: counter.calls,
    errors: counter.errors,
    p50Ms: counter.latency.percentile(0.5),
    p95Ms: counter.latency.percentile(0.95),
  });
  return {
    counter(server, tool) {
      let serverCounter = servers.get(server);
      if (!serverCounter) {
        serverCounter = newCounter();
        servers.set(server, serverCounter);
      }
      let byTool = tools.get(server);
      if (!byTool) {
        byTool = new Map();
        tools.set(server, byTool);
      }
      let toolCounter = byTool.get(tool);
      if (!toolCounter) {
        toolCounter = newCounter();
        byTool.set(tool, toolCounter);
      }
      const own = toolCounter;
      const total = serverCounter;
      return {
        record(milliseconds, failed) {
          own.calls++;
          total.calls++;
          if (failed) {
            own.errors++;
            total.errors++;
          }
          own.latency.record(milliseconds);
          total.latency.record(milliseconds);
        },
      };
    },
    snapshot() {
      const result: McpMetrics = { servers: {}, tools: {} };
      for (const [server, counter] of servers) result.servers[server] = stats(counter);
      for (const [server, byTool] of tools) {
        const entry: Record<string, CallStats> = {};
        for (const [tool, counter] of byTool) entry[tool] = stats(counter);
        result.tools[server] = entry;
      }
      return result;
    },
  };
}

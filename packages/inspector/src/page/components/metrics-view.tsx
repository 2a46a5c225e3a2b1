/**
 * Metrics: latency over time (p50 and p95 per server) and calls per tool, as uPlot charts with
 * the same figures in tables. Sampled by the process while the page is open; refreshed here.
 */
import { useEffect } from 'preact/hooks';
import { errorText } from '../format.js';
import { useAsync } from '../use-async.js';
import { usePage } from '../use-live-store.js';
import { LatencyChart } from './latency-chart.js';
import { ToolCallsChart } from './tool-calls-chart.js';

/** How often the view asks for new samples. */
const refreshMs = 5000;

export function MetricsView() {
  const { api } = usePage();
  const metrics = useAsync(() => api.metrics(), []);
  useEffect(() => {
    const timer = setInterval(() => metrics.reload(), refreshMs);
    return () => clearInterval(timer);
  }, [metrics.reload]);
  const data = metrics.data;
  return (
    <section aria-labelledby="metrics-heading">
      <h2 id="metrics-heading">Metrics</h2>
      {metrics.error !== undefined && <p class="error-text">{errorText(metrics.error)}</p>}
      {data === undefined && metrics.loading && <p>Loading metrics…</p>}
      {data !== undefined && (
        <div class="metrics-grid">
          <LatencyChart series={data.series} />
          <ToolCallsChart toolCalls={data.toolCalls} />
        </div>
      )}
    </section>
  );
}

/** Latency over time per server: p50 (solid) and p95 (dashed), in ms. */
import { useMemo } from 'preact/hooks';
import type uPlot from 'uplot';
import { chartColors } from '../chart-colors.js';
import { formatMs, formatTime } from '../format.js';
import type { UiMetrics } from '../ui-types.js';
import { UplotChart } from './uplot-chart.js';

export function LatencyChart(props: { series: UiMetrics['series'] }) {
  const { series } = props;
  const servers = useMemo(
    () => [...new Set(series.flatMap((sample) => Object.keys(sample.servers)))].sort(),
    [series],
  );
  const data = useMemo<uPlot.AlignedData>(
    () => [
      series.map((sample) => sample.at / 1000),
      ...servers.flatMap((server) => [
        series.map((sample) => sample.servers[server]?.p50 ?? null),
        series.map((sample) => sample.servers[server]?.p95 ?? null),
      ]),
    ],
    [series, servers],
  );
  const last = series[series.length - 1];
  return (
    <section aria-labelledby="latency-heading" class="card">
      <h3 id="latency-heading">Latency over time</h3>
      {series.length === 0 ? (
        <p class="muted">No samples yet: the process samples every few seconds while this page is open.</p>
      ) : (
        <UplotChart
          layoutKey={servers.join('\n')}
          data={data}
          caption={`p50 (solid) and p95 (dashed) latency per server, ms; ${series.length} samples.`}
          options={(width) => ({
            width,
            height: 260,
            scales: { x: { time: true } },
            axes: [{}, { label: 'ms', values: (_u, splits) => splits.map((v) => `${v}`) }],
            series: [
              {},
              ...servers.flatMap((server, index) => {
                const stroke = chartColors[index % chartColors.length] ?? '#0b57d0';
                return [
                  { label: `${server} p50`, stroke, width: 2, spanGaps: true },
                  { label: `${server} p95`, stroke, width: 2, dash: [6, 4], spanGaps: true },
                ];
              }),
            ],
          })}
        />
      )}
      {last !== undefined && (
        <table class="metrics-table">
          <caption>Latest sample, {formatTime(new Date(last.at).toISOString())}</caption>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Calls</th>
              <th scope="col">Errors</th>
              <th scope="col">p50</th>
              <th scope="col">p95</th>
            </tr>
          </thead>
          <tbody>
            {servers.map((server) => {
              const figures = last.servers[server];
              return (
                <tr key={server}>
                  <th scope="row">{server}</th>
                  <td class="num">{figures?.calls ?? 0}</td>
                  <td class="num">{figures?.errors ?? 0}</td>
                  <td class="num">{formatMs(figures?.p50)}</td>
                  <td class="num">{formatMs(figures?.p95)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

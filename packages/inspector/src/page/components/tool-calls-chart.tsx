/** Calls per tool as bars: this process's calls and, when known, the registry store's earlier ones. */
import { useMemo } from 'preact/hooks';
import uPlot from 'uplot';
import { chartColors } from '../chart-colors.js';
import { formatCount } from '../format.js';
import type { UiMetrics } from '../ui-types.js';
import { UplotChart } from './uplot-chart.js';

/** Bars drawn for at most this many tools (the busiest); the table lists them all. */
const maxBars = 30;

export function ToolCallsChart(props: { toolCalls: UiMetrics['toolCalls'] }) {
  const sorted = useMemo(
    () =>
      [...props.toolCalls].sort((a, b) => b.calls + (b.storedCalls ?? 0) - (a.calls + (a.storedCalls ?? 0))),
    [props.toolCalls],
  );
  const bars = sorted.filter((entry) => entry.calls + (entry.storedCalls ?? 0) > 0).slice(0, maxBars);
  const names = bars.map((entry) => `${entry.server}/${entry.tool}`);
  const data = useMemo<uPlot.AlignedData>(
    () => [
      bars.map((_, index) => index),
      bars.map((entry) => entry.calls),
      bars.map((entry) => entry.storedCalls ?? 0),
    ],
    [sorted],
  );
  return (
    <section aria-labelledby="tool-calls-heading" class="card">
      <h3 id="tool-calls-heading">Calls per tool</h3>
      {bars.length === 0 ? (
        <p class="muted">No calls yet.</p>
      ) : (
        <UplotChart
          layoutKey={names.join('\n')}
          data={data}
          caption={`Calls per tool: this session (left bar) and earlier runs from the registry store (right bar); the ${bars.length} busiest.`}
          options={(width) => ({
            width,
            height: 260,
            scales: { x: { time: false, range: [-0.5, Math.max(bars.length - 0.5, 0.5)] } },
            axes: [
              {
                values: (_u, splits) => splits.map((split) => names[split] ?? ''),
                rotate: bars.length > 6 ? -30 : 0,
                size: bars.length > 6 ? 90 : 40,
              },
              { label: 'calls' },
            ],
            series: [
              { label: 'tool', value: (_u, index) => (index === null ? '' : (names[index] ?? '')) },
              {
                label: 'this session',
                stroke: chartColors[0],
                fill: chartColors[0],
                ...barPaths(-1),
                points: { show: false },
              },
              {
                label: 'earlier runs',
                stroke: chartColors[1],
                fill: chartColors[1],
                ...barPaths(1),
                points: { show: false },
              },
            ],
          })}
        />
      )}
      {sorted.length > 0 && (
        <table class="metrics-table">
          <caption>Calls per tool</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Server</th>
              <th scope="col">Calls</th>
              <th scope="col">Errors</th>
              <th scope="col">Earlier runs</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((entry) => (
              <tr key={`${entry.server}/${entry.tool}`}>
                <th scope="row">{entry.tool}</th>
                <td>{entry.server}</td>
                <td class="num">{formatCount(entry.calls)}</td>
                <td class="num">{formatCount(entry.errors)}</td>
                <td class="num">{entry.storedCalls === undefined ? '–' : formatCount(entry.storedCalls)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** uPlot's bar path builder (optional in its types: a build without it draws lines instead). */
function barPaths(align: -1 | 1): { paths?: uPlot.Series.PathBuilder } {
  const paths = uPlot.paths.bars?.({ size: [0.35, 60], align });
  return paths === undefined ? {} : { paths };
}

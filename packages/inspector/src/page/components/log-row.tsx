/**
 * One protocol log message as a fixed-height table row: time, server, direction, type, method,
 * id, digest. The time is a button that opens the message; it covers the whole row, so a click
 * anywhere on the row opens it too.
 */
import { formatTime } from '../format.js';
import { logEntrySummary } from '../log-filter.js';
import type { UiLogEntry } from '../ui-types.js';

export function LogRow(props: {
  entry: UiLogEntry;
  rowIndex: number;
  top: number;
  selected: boolean;
  onSelect(): void;
}) {
  const { entry } = props;
  return (
    <tr
      aria-rowindex={props.rowIndex}
      class={props.selected ? `log-${entry.type} log-selected` : `log-${entry.type}`}
      style={{ transform: `translateY(${props.top}px)` }}
    >
      <td class="log-time">
        <button type="button" class="log-open" aria-pressed={props.selected} onClick={props.onSelect}>
          {formatTime(entry.at)}
        </button>
      </td>
      <td class="log-server">
        {entry.server}
        {entry.channel === 'app' && <span class="badge badge-neutral log-channel">app</span>}
      </td>
      <td class={`log-direction log-direction-${entry.direction}`}>
        <span aria-hidden="true">{entry.direction === 'out' ? '→' : '←'}</span> {entry.direction}
      </td>
      <td class="log-type">{entry.type}</td>
      <td class="log-method">{entry.method ?? ''}</td>
      <td class="log-id">{entry.id === undefined ? '' : `#${entry.id}`}</td>
      <td class="log-summary">{logEntrySummary(entry)}</td>
    </tr>
  );
}

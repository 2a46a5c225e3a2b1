/** One protocol log message as a fixed-height row: time, server, direction, type, method, id, digest. */
import { formatTime } from '../format.js';
import { logEntrySummary } from '../log-filter.js';
import type { UiLogEntry } from '../ui-types.js';

export function LogRow(props: { entry: UiLogEntry; selected: boolean; onSelect(): void }) {
  const { entry } = props;
  return (
    <button
      type="button"
      class={`log-row log-${entry.type}`}
      aria-pressed={props.selected}
      onClick={props.onSelect}
    >
      <span class="log-time">{formatTime(entry.at)}</span>
      <span class="log-server">{entry.server}</span>
      <span class={`log-direction log-direction-${entry.direction}`}>
        <span aria-hidden="true">{entry.direction === 'out' ? '→' : '←'}</span> {entry.direction}
      </span>
      <span class="log-type">{entry.type}</span>
      <span class="log-method">{entry.method ?? ''}</span>
      <span class="log-id">{entry.id === undefined ? '' : `#${entry.id}`}</span>
      <span class="log-summary">{logEntrySummary(entry)}</span>
    </button>
  );
}

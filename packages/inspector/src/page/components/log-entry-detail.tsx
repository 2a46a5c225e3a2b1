/** The message of the selected protocol log row, as JSON. */
import { formatTime, prettyJson } from '../format.js';
import type { UiLogEntry } from '../ui-types.js';
import { CodeBlock } from './code-block.js';

export function LogEntryDetail(props: { entry: UiLogEntry | undefined }) {
  const { entry } = props;
  return (
    <div class="log-detail">
      <h3>Message</h3>
      {entry === undefined ? (
        <p class="muted">Choose a message to see its JSON.</p>
      ) : (
        <>
          <p class="small">
            #{entry.seq} · {formatTime(entry.at)} · {entry.server} · {entry.direction} · {entry.type}
            {entry.method !== undefined && ` · ${entry.method}`}
          </p>
          <CodeBlock text={prettyJson(entry.message)} />
        </>
      )}
    </div>
  );
}

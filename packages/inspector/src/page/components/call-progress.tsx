/** A running call's progress bar: determinate when the server gives a total, with its message. */
import type { UiProgress } from '../ui-types.js';

export function CallProgress(props: { progress: UiProgress | undefined; awaitingApproval: boolean }) {
  const { progress } = props;
  const total = progress?.total;
  return (
    <div class="call-progress">
      {total !== undefined && total > 0 ? (
        <progress aria-label="Progress" max={total} value={Math.min(progress?.progress ?? 0, total)} />
      ) : (
        <progress aria-label="Progress" />
      )}
      <span class="small" aria-live="polite">
        {props.awaitingApproval
          ? 'Waiting for your approval…'
          : progress === undefined
            ? 'Running…'
            : `${progress.progress}${total !== undefined ? ` / ${total}` : ''}${progress.message !== undefined ? ` — ${progress.message}` : ''}`}
      </span>
    </div>
  );
}

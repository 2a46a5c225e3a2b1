/** The header's status line: whether live updates arrive, and the last notice (announced politely). */
import { useLiveStore } from '../use-live-store.js';

const connectionText = {
  connecting: 'Connecting to the switchboard ui process…',
  open: 'Live',
  closed: 'Live updates lost: reconnecting…',
} as const;

export function StatusLine() {
  const connection = useLiveStore((state) => state.connection);
  const notice = useLiveStore((state) => state.notice);
  return (
    <div class="status-line">
      <span class={`connection connection-${connection}`}>{connectionText[connection]}</span>
      <span role="status" class={notice?.tone === 'error' ? 'notice notice-error' : 'notice'}>
        {notice?.text}
      </span>
    </div>
  );
}

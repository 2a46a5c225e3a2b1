/** A server's or call's state as a coloured word (the word carries the meaning; colour only helps). */
const tones: Record<string, string> = {
  connected: 'good',
  done: 'good',
  connecting: 'busy',
  reconnecting: 'busy',
  running: 'busy',
  'awaiting-approval': 'busy',
  failed: 'bad',
  refused: 'bad',
  'needs-auth': 'warn',
  cancelled: 'warn',
};

export function StateBadge(props: { state: string }) {
  return <span class={`badge badge-${tones[props.state] ?? 'neutral'}`}>{props.state}</span>;
}

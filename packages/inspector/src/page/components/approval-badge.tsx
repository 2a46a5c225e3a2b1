/** What the approval policy says for a tool: allow, ask or deny. */
const tones = { allow: 'good', ask: 'warn', deny: 'bad' } as const;
const words = { allow: 'allowed', ask: 'asks for approval', deny: 'denied' } as const;

export function ApprovalBadge(props: { approval: 'allow' | 'ask' | 'deny' }) {
  return <span class={`badge badge-${tones[props.approval]}`}>{words[props.approval]}</span>;
}

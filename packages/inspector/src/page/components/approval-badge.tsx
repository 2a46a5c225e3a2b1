/** What the approval policy says for a tool (allow, ask or deny), and whether it belongs to an MCP App. */
const tones = { allow: 'good', ask: 'warn', deny: 'bad' } as const;
const words = { allow: 'allowed', ask: 'asks for approval', deny: 'denied' } as const;

export function ApprovalBadge(props: { approval: 'allow' | 'ask' | 'deny' }) {
  return <span class={`badge badge-${tones[props.approval]}`}>{words[props.approval]}</span>;
}

/** A tool of an MCP App: it renders its results in an app, or only an app may call it. */
export function AppBadge(props: { app: { resourceUri?: string; visibility?: string[] } | undefined }) {
  const { app } = props;
  if (app === undefined) return null;
  if (app.visibility !== undefined && !app.visibility.includes('model')) {
    return (
      <span class="badge badge-neutral" title="Only its app calls it: never offered to a model">
        app only
      </span>
    );
  }
  return app.resourceUri === undefined ? null : (
    <span class="badge badge-neutral" title={`Its results render in the app ${app.resourceUri}`}>
      app
    </span>
  );
}

/**
 * One server in the Servers table. Its name is a link named exactly after the server (it opens
 * the server's tools). The actions shown depend on its state, so that "Connect", "Reconnect" and
 * "Disconnect" never stand side by side.
 */
import { useState } from 'preact/hooks';
import { errorText, formatCount, formatMs, formatTime } from '../format.js';
import { routeHref } from '../hash-route.js';
import type { UiServer, UiSignIn } from '../ui-types.js';
import { usePage } from '../use-live-store.js';
import { StateBadge } from './state-badge.js';

type Action = 'connect' | 'reconnect' | 'disconnect' | 'sign-in' | 'remove';

function actionsFor(server: UiServer): Action[] {
  const actions: Action[] = [];
  switch (server.state) {
    case 'connected':
      actions.push('reconnect', 'disconnect');
      break;
    case 'connecting':
    case 'reconnecting':
      actions.push('disconnect');
      break;
    case 'needs-auth':
      actions.push('sign-in', 'disconnect');
      break;
    case 'disconnected':
    case 'closed':
      actions.push('connect');
      break;
    default:
      actions.push('reconnect', 'disconnect');
  }
  if (server.origin === 'page') actions.push('remove');
  return actions;
}

const actionLabel: Record<Action, string> = {
  connect: 'Connect',
  reconnect: 'Reconnect',
  disconnect: 'Disconnect',
  'sign-in': 'Sign in',
  remove: 'Remove',
};

export function ServerRow(props: { server: UiServer }) {
  const { server } = props;
  const { api, store } = usePage();
  const [busy, setBusy] = useState<Action | undefined>(undefined);
  const [signIn, setSignIn] = useState<UiSignIn | undefined>(undefined);

  async function run(action: Action): Promise<void> {
    setBusy(action);
    try {
      if (action === 'sign-in') {
        const answer = await api.signIn(server.name);
        setSignIn(answer);
        store.setNotice(
          answer.state === 'signed-in'
            ? `${server.name}: signed in.`
            : `${server.name}: sign-in started in your browser; finish it there.`,
        );
      } else if (action === 'remove') {
        await api.removeServer(server.name);
        await store.refreshServers();
        store.setNotice(`${server.name}: removed.`);
      } else {
        store.putServer(await api.serverAction(server.name, action));
      }
    } catch (error) {
      store.setNotice(
        `${server.name}: ${actionLabel[action].toLowerCase()} failed: ${errorText(error)}`,
        'error',
      );
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <tr>
      <th scope="row">
        <a class="server-name" href={routeHref({ view: 'server', server: server.name, tab: 'tools' })}>
          {server.name}
        </a>
        <div class="muted small target" title={server.target}>
          {server.target}
        </div>
        {server.upstreams !== undefined && server.upstreams.length > 0 && (
          <div class="small">Gateway of: {server.upstreams.join(', ')}</div>
        )}
      </th>
      <td>
        <StateBadge state={server.state} />
      </td>
      <td>
        {server.era ?? '–'}
        {server.protocolVersion !== undefined && <div class="small">{server.protocolVersion}</div>}
        {server.serverInfo !== undefined && (
          <div class="small muted">
            {server.serverInfo.name} {server.serverInfo.version}
          </div>
        )}
      </td>
      <td>{server.transport}</td>
      <td class="num">{formatCount(server.toolCount)}</td>
      <td class="num">
        {formatCount(server.calls)}
        {server.errors > 0 && <div class="small error-text">{formatCount(server.errors)} failed</div>}
      </td>
      <td class="num">
        {formatMs(server.latency.p50)} / {formatMs(server.latency.p95)}
      </td>
      <td class="num">{formatCount(server.respawns)}</td>
      <td class="last-error">
        {server.lastError === undefined ? (
          '–'
        ) : (
          <>
            <code>{server.lastError.code}</code> {server.lastError.message}
            <div class="small muted">{formatTime(server.lastError.at)}</div>
          </>
        )}
      </td>
      <td class="actions">
        {actionsFor(server).map((action) => (
          <button
            key={action}
            type="button"
            class={action === 'remove' || action === 'disconnect' ? 'secondary' : undefined}
            disabled={busy !== undefined}
            onClick={() => void run(action)}
          >
            {busy === action ? `${actionLabel[action]}…` : actionLabel[action]}
          </button>
        ))}
        {signIn?.authorizationUrl !== undefined && signIn.state === 'started' && (
          <div class="small">
            <a href={signIn.authorizationUrl} target="_blank" rel="noreferrer noopener">
              Open the sign-in page
            </a>
          </div>
        )}
      </td>
    </tr>
  );
}

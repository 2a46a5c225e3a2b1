/**
 * The sandbox proxy of an MCP App (served by the sandbox origin, `sandbox-server.ts`): it loads the
 * app's document into a frame of no origin — sandboxed without `allow-same-origin` — and relays
 * JSON-RPC messages both ways: from the inspector's page (checked by origin) to the app, and from
 * the app (checked by window) to the page, addressed to the page's origin only. Messages named
 * `ui/notifications/sandbox-*` are between page and proxy, never relayed. Built on its own
 * (`sandbox-proxy.js`): it shares nothing with the page.
 */

const hostOrigin = document.querySelector<HTMLMetaElement>('meta[name="switchboard-host-origin"]')?.content;
const allow = document.querySelector<HTMLMetaElement>('meta[name="switchboard-app-allow"]')?.content ?? '';

const sandboxPrefix = 'ui/notifications/sandbox-';

function methodOf(data: unknown): string | undefined {
  const method = (data as { method?: unknown } | null)?.method;
  return typeof method === 'string' ? method : undefined;
}

if (hostOrigin !== undefined && window.parent !== window) {
  const app = document.createElement('iframe');
  // Scripts and forms only: an opaque origin, no top navigation, no popups.
  app.setAttribute('sandbox', 'allow-scripts allow-forms');
  if (allow !== '') app.setAttribute('allow', allow);
  app.title = 'MCP App';

  window.addEventListener('message', (event) => {
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      if (methodOf(event.data)?.startsWith(sandboxPrefix)) return;
      // The app's origin is opaque: it cannot be named as the target.
      app.contentWindow?.postMessage(event.data, '*');
    } else if (event.source === app.contentWindow && app.contentWindow !== null) {
      if (methodOf(event.data)?.startsWith(sandboxPrefix)) return;
      window.parent.postMessage(event.data, hostOrigin);
    }
  });

  app.src = 'app';
  document.body.appendChild(app);
  window.parent.postMessage(
    { jsonrpc: '2.0', method: `${sandboxPrefix}proxy-ready`, params: {} },
    hostOrigin,
  );
}

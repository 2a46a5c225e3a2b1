/**
 * A call's result rendered by its tool's MCP App. The process opens the app (its HTML read from
 * the server, its sandbox documents made); the page frames the sandbox — another origin, which
 * knows no token — and hosts the app through the official AppBridge (`app-bridge-host.ts`, loaded
 * on first use). What the app may reach is shown under it, from what its resource declared.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AppHost } from '../app-bridge-host.js';
import { errorText } from '../format.js';
import type { UiAppView } from '../ui-types.js';
import { usePage } from '../use-live-store.js';

type AppState = 'opening' | 'loading' | 'ready' | 'failed';

/** Largest height the app may ask for (it scrolls beyond). */
const maxHeight = 720;

function reach(view: UiAppView): string {
  const connect = view.granted.csp.connectDomains ?? [];
  const resources = view.granted.csp.resourceDomains ?? [];
  const parts = [
    connect.length === 0 ? 'no network' : `network: ${connect.join(', ')}`,
    ...(resources.length === 0 ? [] : [`files from: ${resources.join(', ')}`]),
    ...(view.granted.allow === '' ? [] : [`may use: ${view.granted.allow.replace(/ \*/g, '')}`]),
  ];
  return parts.join(' · ');
}

export function AppResult(props: { callId: string; resourceUri: string }) {
  const { api } = usePage();
  const frame = useRef<HTMLIFrameElement>(null);
  const [view, setView] = useState<UiAppView | undefined>(undefined);
  const [state, setState] = useState<AppState>('opening');
  const [error, setError] = useState<string | undefined>(undefined);
  const [height, setHeight] = useState(160);

  useEffect(() => {
    let closed = false;
    let host: AppHost | undefined;
    let viewId: string | undefined;
    setState('opening');
    setError(undefined);
    performance.mark('switchboard-app-open');
    (async () => {
      const opened = await api.openApp(props.callId);
      viewId = opened.viewId;
      if (closed) return;
      setView(opened);
      const element = frame.current;
      if (element === null) return;
      setState('loading');
      const { hostApp } = await import('../app-bridge-host.js');
      if (closed) return;
      host = await hostApp(element, opened, api, {
        onReady: () => {
          performance.mark('switchboard-app-ready');
          if (!closed) setState('ready');
        },
        onSize: ({ height: asked }) => {
          if (asked !== undefined && !closed) setHeight(Math.min(Math.max(asked, 40), maxHeight));
        },
      });
    })().catch((failure: unknown) => {
      if (closed) return;
      setState('failed');
      setError(errorText(failure));
    });
    return () => {
      closed = true;
      void host?.close();
      if (viewId !== undefined) api.closeApp(viewId).catch(() => {});
    };
  }, [props.callId]);

  const bordered = view?.requested.prefersBorder !== false;
  return (
    <div class="app-result" data-app-state={state}>
      <iframe
        ref={frame}
        class={bordered ? 'app-frame app-frame-bordered' : 'app-frame'}
        title={`MCP App ${props.resourceUri}`}
        sandbox="allow-scripts allow-same-origin"
        {...(view?.granted.allow ? { allow: view.granted.allow } : {})}
        style={{ height: `${height}px` }}
      />
      <p class="small muted app-status">
        {state === 'opening' && 'Opening the app…'}
        {state === 'loading' && 'Loading the app…'}
        {state === 'ready' && view !== undefined && (
          <>
            <code>{view.resourceUri}</code> · {reach(view)}
          </>
        )}
      </p>
      {error !== undefined && <p class="error-text">{error}</p>}
    </div>
  );
}

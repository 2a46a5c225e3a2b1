/** The page's frame: header, navigation, the current view, pending requests and the status line. */

import { useEffect, useRef } from 'preact/hooks';
import type { UiApiClient } from '../api-client.js';
import { type Route, useRoute } from '../hash-route.js';
import type { LiveStore } from '../live-store.js';
import { PageContext } from '../use-live-store.js';
import { AllToolsView } from './all-tools-view.js';
import { LogView } from './log-view.js';
import { MetricsView } from './metrics-view.js';
import { NavBar } from './nav-bar.js';
import { PendingRequests } from './pending-requests.js';
import { PlaygroundView } from './playground-view.js';
import { ServerView } from './server-view.js';
import { ServersView } from './servers-view.js';
import { StatusLine } from './status-line.js';
import { ToolView } from './tool-view.js';
import { TrustView } from './trust-view.js';

const viewTitles: Record<Route['view'], string> = {
  servers: 'Servers',
  server: 'Server',
  tool: 'Tool',
  tools: 'Tools',
  log: 'Protocol log',
  playground: 'Playground',
  metrics: 'Metrics',
  trust: 'Tool trust',
};

export function App(props: { api: UiApiClient; store: LiveStore }) {
  const route = useRoute();
  const firstRoute = useRef(true);
  const where =
    route.view === 'server' ? route.server : route.view === 'tool' ? route.tool : viewTitles[route.view];
  useEffect(() => {
    document.title = `${where} — Switchboard`;
    // A new view takes the focus (and the top of the page), as a page load would; not at load itself.
    if (firstRoute.current) {
      firstRoute.current = false;
      return;
    }
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [where, route.view]);
  return (
    <PageContext.Provider value={{ api: props.api, store: props.store }}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <h1>Switchboard</h1>
        <NavBar route={route} />
        <StatusLine />
      </header>
      <PendingRequests />
      <main id="main" tabIndex={-1}>
        {route.view === 'servers' && <ServersView />}
        {route.view === 'server' && <ServerView key={route.server} server={route.server} tab={route.tab} />}
        {route.view === 'tool' && (
          <ToolView key={`${route.server}/${route.tool}`} server={route.server} tool={route.tool} />
        )}
        {route.view === 'tools' && <AllToolsView />}
        {route.view === 'log' && <LogView />}
        {route.view === 'playground' && <PlaygroundView />}
        {route.view === 'metrics' && <MetricsView />}
        {route.view === 'trust' && <TrustView />}
      </main>
    </PageContext.Provider>
  );
}

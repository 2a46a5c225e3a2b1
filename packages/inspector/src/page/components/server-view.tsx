/** One server: its tools, resources and prompts (one tab each), searchable. */
import { useState } from 'preact/hooks';
import { errorText, formatCount } from '../format.js';
import { routeHref } from '../hash-route.js';
import type { UiServerCard } from '../ui-types.js';
import { useAsync } from '../use-async.js';
import { useLiveStore, usePage } from '../use-live-store.js';
import { PromptList } from './prompt-list.js';
import { ResourceList } from './resource-list.js';
import { SearchBox } from './search-box.js';
import { StateBadge } from './state-badge.js';
import { ToolList, toolMatches } from './tool-list.js';

type Tab = 'tools' | 'resources' | 'prompts';
const tabLabels: Record<Tab, string> = { tools: 'Tools', resources: 'Resources', prompts: 'Prompts' };

export function ServerView(props: { server: string; tab: Tab }) {
  const { api } = usePage();
  const server = useLiveStore((state) => state.servers.find((s) => s.name === props.server));
  const version = useLiveStore((state) => state.toolsVersion[props.server] ?? 0);
  const [query, setQuery] = useState('');
  const tools = useAsync(
    () => (props.tab === 'tools' ? api.tools(props.server) : Promise.resolve([])),
    [props.server, props.tab, version, server?.state],
  );
  const shown = (tools.data ?? []).filter((tool) => toolMatches(tool, query));
  // Read from the server itself, so it shows while the connection is still failing or connecting.
  const card = useAsync(() => api.serverCard(props.server), [props.server]);
  return (
    <section aria-labelledby="server-heading">
      <nav aria-label="Breadcrumb" class="breadcrumb small">
        <a href="#/servers">Servers</a> / <span aria-current="page">{props.server}</span>
      </nav>
      <h2 id="server-heading">
        {props.server} {server !== undefined && <StateBadge state={server.state} />}
      </h2>
      {server !== undefined && (
        <p class="small muted">
          {server.transport} · <code>{server.target}</code>
          {server.serverInfo !== undefined && ` · ${server.serverInfo.name} ${server.serverInfo.version}`}
          {server.protocolVersion !== undefined && ` · protocol ${server.protocolVersion}`}
        </p>
      )}
      {card.data !== undefined && <ServerCardBlock card={card.data} />}
      <nav aria-label="Server sections" class="tabs">
        {(Object.keys(tabLabels) as Tab[]).map((tab) => (
          <a
            key={tab}
            class="tab"
            href={routeHref({ view: 'server', server: props.server, tab })}
            aria-current={props.tab === tab ? 'page' : undefined}
          >
            {tabLabels[tab]}
            {tab === 'tools' && server !== undefined && ` (${formatCount(server.toolCount)})`}
          </a>
        ))}
      </nav>
      {props.tab === 'tools' && (
        <>
          <h3>Tools</h3>
          <SearchBox id="server-tools-search" label="Search tools" value={query} onInput={setQuery} />
          {tools.error !== undefined && <p class="error-text">{errorText(tools.error)}</p>}
          {tools.loading && tools.data === undefined ? (
            <p>Loading tools…</p>
          ) : (
            <ToolList tools={shown} caption={`Tools of ${props.server}`} />
          )}
        </>
      )}
      {props.tab === 'resources' && <ResourceList server={props.server} />}
      {props.tab === 'prompts' && <PromptList server={props.server} />}
    </section>
  );
}

/** The server's Server Card (SEP-2127): what the server says of itself before any connection. */
function ServerCardBlock(props: { card: UiServerCard }) {
  const { card } = props.card;
  if (props.card.status === 'not-remote') return null;
  return (
    <section aria-labelledby="server-card-heading" class="small">
      <h3 id="server-card-heading">Server Card</h3>
      {card === undefined ? (
        <p class="muted">None published (looked for at the endpoint's /server-card and /.well-known/mcp/).</p>
      ) : (
        <dl>
          <dt>Name</dt>
          <dd>
            {card.title ?? card.name} {card.version}
          </dd>
          {card.description !== undefined && (
            <>
              <dt>Description</dt>
              <dd>{card.description}</dd>
            </>
          )}
          {card.endpoint !== undefined && (
            <>
              <dt>Endpoint</dt>
              <dd>
                <code>{card.endpoint}</code>
              </dd>
            </>
          )}
          {card.protocolVersions !== undefined && (
            <>
              <dt>Protocol versions</dt>
              <dd>{card.protocolVersions.join(', ')}</dd>
            </>
          )}
          <dt>Read from</dt>
          <dd>
            <code>{card.url}</code>
          </dd>
        </dl>
      )}
    </section>
  );
}

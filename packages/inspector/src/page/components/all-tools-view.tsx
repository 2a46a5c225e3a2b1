/** The Tools view: the tools of every connected server, searchable, grouped by server. */
import { useState } from 'preact/hooks';
import { errorText } from '../format.js';
import { routeHref } from '../hash-route.js';
import type { UiToolSummary } from '../ui-types.js';
import { useAsync } from '../use-async.js';
import { useLiveStore, usePage } from '../use-live-store.js';
import { SearchBox } from './search-box.js';
import { ToolList, toolMatches } from './tool-list.js';

export function AllToolsView() {
  const { api } = usePage();
  const servers = useLiveStore((state) => state.servers);
  const versions = useLiveStore((state) => state.toolsVersion);
  const connected = servers.filter((server) => server.state === 'connected').map((server) => server.name);
  const [query, setQuery] = useState('');
  const lists = useAsync(
    () =>
      Promise.all(
        connected.map((name) =>
          api.tools(name).then(
            (tools) => ({ name, tools, error: undefined as string | undefined }),
            (error: unknown) => ({ name, tools: [] as UiToolSummary[], error: errorText(error) }),
          ),
        ),
      ),
    [connected.join('\n'), versions],
  );
  const total = (lists.data ?? []).reduce((sum, list) => sum + list.tools.length, 0);
  return (
    <section aria-labelledby="tools-heading">
      <h2 id="tools-heading">Tools</h2>
      <SearchBox id="all-tools-search" label="Search tools" value={query} onInput={setQuery} />
      {lists.loading && lists.data === undefined && <p>Loading tools…</p>}
      {lists.data !== undefined && (
        <p class="small muted">
          {total} tools on {connected.length} connected servers.
        </p>
      )}
      {connected.length === 0 && <p>No server is connected: connect one in Servers.</p>}
      {(lists.data ?? []).map((list, index) => (
        <section key={list.name} aria-labelledby={`tools-of-${index}`}>
          <h3 id={`tools-of-${index}`}>
            Tools of <a href={routeHref({ view: 'server', server: list.name, tab: 'tools' })}>{list.name}</a>
          </h3>
          {list.error !== undefined && <p class="error-text">{list.error}</p>}
          <ToolList
            tools={list.tools.filter((tool) => toolMatches(tool, query))}
            caption={`Tools of ${list.name}`}
          />
        </section>
      ))}
    </section>
  );
}

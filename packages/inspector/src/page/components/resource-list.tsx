/** A server's resources (each can be read here) and resource templates, searchable. */
import { useState } from 'preact/hooks';
import { errorText } from '../format.js';
import { useAsync } from '../use-async.js';
import { usePage } from '../use-live-store.js';
import { type ResourceContents, ResourceContentsView } from './resource-contents-view.js';
import { SearchBox } from './search-box.js';

const matches = (query: string, ...texts: Array<string | undefined>) =>
  query.trim() === '' || texts.some((text) => text?.toLowerCase().includes(query.trim().toLowerCase()));

export function ResourceList(props: { server: string }) {
  const { api } = usePage();
  const list = useAsync(() => api.resources(props.server), [props.server]);
  const [query, setQuery] = useState('');
  const [read, setRead] = useState<
    { uri: string; contents?: ResourceContents[]; error?: string } | undefined
  >();
  const resources = (list.data?.resources ?? []).filter((r) =>
    matches(query, r.uri, r.name, r.title, r.description),
  );
  const templates = (list.data?.templates ?? []).filter((t) =>
    matches(query, t.uriTemplate, t.name, t.description),
  );
  return (
    <>
      <h3>Resources</h3>
      <SearchBox id="server-resources-search" label="Search resources" value={query} onInput={setQuery} />
      {list.error !== undefined && <p class="error-text">{errorText(list.error)}</p>}
      {list.loading && list.data === undefined && <p>Loading resources…</p>}
      {list.data !== undefined && resources.length === 0 && <p class="muted">No resources match.</p>}
      <ul class="plain-list">
        {resources.map((resource) => (
          <li key={resource.uri}>
            <strong>{resource.title ?? resource.name ?? resource.uri}</strong>{' '}
            <code class="small">{resource.uri}</code>
            {resource.mimeType !== undefined && <span class="small muted"> · {resource.mimeType}</span>}
            {resource.description !== undefined && <div class="small">{resource.description}</div>}
            <button
              type="button"
              class="secondary small-button"
              onClick={() =>
                api.readResource(props.server, resource.uri).then(
                  (result) =>
                    setRead({ uri: resource.uri, ...(result as { contents?: ResourceContents[] }) }),
                  (error: unknown) => setRead({ uri: resource.uri, error: errorText(error) }),
                )
              }
            >
              Read<span class="visually-hidden"> {resource.uri}</span>
            </button>
            {read?.uri === resource.uri && (
              <div class="card">
                {read.error !== undefined && <p class="error-text">{read.error}</p>}
                {read.contents?.map((contents) => (
                  <ResourceContentsView key={contents.uri} contents={contents} />
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
      <h3>Resource templates</h3>
      {list.data !== undefined && templates.length === 0 && <p class="muted">No templates match.</p>}
      <ul class="plain-list">
        {templates.map((template) => (
          <li key={template.uriTemplate}>
            <strong>{template.title ?? template.name ?? template.uriTemplate}</strong>{' '}
            <code class="small">{template.uriTemplate}</code>
            {template.description !== undefined && <div class="small">{template.description}</div>}
          </li>
        ))}
      </ul>
    </>
  );
}

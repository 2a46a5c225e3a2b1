/** A resource link of a result: what it points to, and a button that reads it from its server. */
import { useState } from 'preact/hooks';
import { errorText } from '../format.js';
import { usePage } from '../use-live-store.js';
import { type ResourceContents, ResourceContentsView } from './resource-contents-view.js';

export function ResourceLinkContent(props: {
  server: string;
  block: { uri?: string; name?: string; title?: string; description?: string; mimeType?: string };
}) {
  const { api } = usePage();
  const { block } = props;
  const [read, setRead] = useState<{ contents?: ResourceContents[] } | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const uri = block.uri ?? '';
  return (
    <div class="content-resource-link">
      <div>
        <span class="badge badge-neutral">resource link</span>{' '}
        <strong>{block.title ?? block.name ?? uri}</strong> <code class="small">{uri}</code>
        {block.mimeType !== undefined && <span class="small muted"> · {block.mimeType}</span>}
      </div>
      {block.description !== undefined && <p class="small">{block.description}</p>}
      <button
        type="button"
        class="secondary"
        onClick={() =>
          api.readResource(props.server, uri).then(
            (result) => setRead(result as { contents?: ResourceContents[] }),
            (problem: unknown) => setError(errorText(problem)),
          )
        }
      >
        Read resource<span class="visually-hidden"> {uri}</span>
      </button>
      {error !== undefined && <p class="error-text">{error}</p>}
      {read?.contents?.map((contents) => (
        <ResourceContentsView key={contents.uri} contents={contents} />
      ))}
    </div>
  );
}

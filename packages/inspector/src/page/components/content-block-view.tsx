/** One content block of a CallToolResult, rendered by its type. */
import { isRecord } from '../schema-form-model.js';
import { JsonTree } from './json-tree.js';
import { type ResourceContents, ResourceContentsView } from './resource-contents-view.js';
import { ResourceLinkContent } from './resource-link-content.js';
import { TextContent } from './text-content.js';

export function ContentBlockView(props: { block: unknown; server: string }) {
  const block = isRecord(props.block) ? props.block : {};
  const data = typeof block.data === 'string' ? block.data : '';
  const mime = typeof block.mimeType === 'string' ? block.mimeType : '';
  switch (block.type) {
    case 'text':
      return <TextContent text={typeof block.text === 'string' ? block.text : ''} />;
    case 'image':
      return (
        // biome-ignore lint/a11y/noRedundantAlt: "image result" is one of the page's documented accessible names
        <img class="result-image" alt="image result" src={`data:${mime || 'image/png'};base64,${data}`} />
      );
    case 'audio':
      return (
        <div class="content-audio">
          {/* biome-ignore lint/a11y/useMediaCaption: a tool's audio comes without captions to show */}
          <audio
            controls={true}
            aria-label="audio result"
            src={`data:${mime || 'audio/wav'};base64,${data}`}
          />
          <span class="small muted"> {mime}</span>
        </div>
      );
    case 'resource':
      return (
        <div class="content-resource">
          <span class="badge badge-neutral">embedded resource</span>
          <ResourceContentsView
            contents={(isRecord(block.resource) ? block.resource : {}) as ResourceContents}
          />
        </div>
      );
    case 'resource_link':
      return <ResourceLinkContent server={props.server} block={block as { uri?: string }} />;
    default:
      return (
        <div class="content-unknown">
          <span class="badge badge-neutral">{String(block.type ?? 'unknown')} block</span>
          <JsonTree value={props.block} />
        </div>
      );
  }
}

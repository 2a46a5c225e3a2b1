/** The contents of a resource (read, or embedded in a result): text, an image, or a blob's size. */
import { TextContent } from './text-content.js';

export interface ResourceContents {
  uri?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** Text a blob holds (`text/*`, JSON, XML), decoded; undefined for other kinds or bad base64. */
function blobText(blob: string, mime: string): string | undefined {
  if (!/^text\/|json|xml|yaml|javascript/.test(mime)) return undefined;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(blob), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

export function ResourceContentsView(props: { contents: ResourceContents }) {
  const { contents } = props;
  const mime = contents.mimeType ?? '';
  const decoded = typeof contents.blob === 'string' ? blobText(contents.blob, mime) : undefined;
  return (
    <div class="resource-contents">
      <div class="small muted">
        <code>{contents.uri ?? '(no uri)'}</code>
        {mime !== '' && ` · ${mime}`}
      </div>
      {typeof contents.text === 'string' && <TextContent text={contents.text} />}
      {decoded !== undefined && <TextContent text={decoded} />}
      {typeof contents.blob === 'string' &&
        decoded === undefined &&
        (mime.startsWith('image/') ? (
          <img
            class="result-image"
            alt={`resource ${contents.uri ?? ''}`}
            src={`data:${mime};base64,${contents.blob}`}
          />
        ) : mime.startsWith('audio/') ? (
          // biome-ignore lint/a11y/useMediaCaption: a resource's audio comes without captions to show
          <audio
            controls={true}
            src={`data:${mime};base64,${contents.blob}`}
            aria-label={`audio ${contents.uri ?? ''}`}
          />
        ) : (
          <p class="small">Binary, {Math.round((contents.blob.length * 3) / 4)} bytes.</p>
        ))}
    </div>
  );
}

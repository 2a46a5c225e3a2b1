/** A text block of a result: plain, or markdown when it reads as such (switchable either way). */
import { useState } from 'preact/hooks';
import { looksLikeMarkdown } from '../render-markdown.js';
import { MarkdownText } from './markdown-text.js';

export function TextContent(props: { text: string }) {
  const markdownLike = looksLikeMarkdown(props.text);
  const [asMarkdown, setAsMarkdown] = useState(markdownLike);
  return (
    <div class="content-text">
      {asMarkdown ? <MarkdownText text={props.text} /> : <pre>{props.text}</pre>}
      {markdownLike && (
        <button type="button" class="link-like small" onClick={() => setAsMarkdown(!asMarkdown)}>
          {asMarkdown ? 'Show as plain text' : 'Show as markdown'}
        </button>
      )}
    </div>
  );
}

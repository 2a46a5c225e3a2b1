/** Markdown rendered to sanitized HTML (see render-markdown.ts). */
import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../render-markdown.js';

export function MarkdownText(props: { text: string }) {
  const html = useMemo(() => renderMarkdown(props.text), [props.text]);
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

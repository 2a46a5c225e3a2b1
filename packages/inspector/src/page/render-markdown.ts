/**
 * Markdown of a tool result as safe HTML: marked renders it, DOMPurify strips what could run or
 * reach out (scripts, handlers, forms, remote images — a result must not make the page fetch a
 * tracker). Headings move down under the page's own (`#` → h4), so the outline stays in order.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const headingShift = 3;

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    heading({ tokens, depth }) {
      const level = Math.min(depth + headingShift, 6);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
  },
});

let hooked = false;

export function renderMarkdown(markdown: string): string {
  if (!hooked) {
    // Links open outside the page, and tell the target nothing of it.
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  const html = marked.parse(markdown, { async: false });
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: [
      'img',
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'video',
      'audio',
    ],
    FORBID_ATTR: ['style'],
  });
}

/** Whether a text reads as markdown (headings, lists, fences, links, emphasis, tables). */
export function looksLikeMarkdown(text: string): boolean {
  return /^#{1,6}\s|^\s*[-*+]\s+\S|^\s*\d+\.\s+\S|```|\[[^\]]+\]\([^)]+\)|\*\*[^*]+\*\*|^\|.+\|\s*$/m.test(
    text,
  );
}

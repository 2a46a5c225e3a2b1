/**
 * The raw CallToolResult in a `<details>`. Its JSON is rendered only once opened: closed, it adds
 * no second copy of the result's text to the page (and costs nothing for a large result).
 */
import { useState } from 'preact/hooks';
import { prettyJson } from '../format.js';
import { CodeBlock } from './code-block.js';

export function RawResult(props: { result: unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="raw-result" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Raw result</summary>
      {open && <CodeBlock text={prettyJson(props.result)} />}
    </details>
  );
}

/** A JSON Schema shown as formatted JSON in a collapsible block. */
import { prettyJson } from '../format.js';

export function SchemaBlock(props: { title: string; schema: unknown; open?: boolean }) {
  return (
    <details class="schema-block" open={props.open}>
      <summary>{props.title}</summary>
      <pre class="code">{prettyJson(props.schema)}</pre>
    </details>
  );
}

/** A JSON Schema shown as formatted JSON in a collapsible block. */
import { prettyJson } from '../format.js';
import { CodeBlock } from './code-block.js';

export function SchemaBlock(props: { title: string; schema: unknown; open?: boolean }) {
  return (
    <details class="schema-block" open={props.open}>
      <summary>{props.title}</summary>
      <CodeBlock text={prettyJson(props.schema)} />
    </details>
  );
}

/**
 * A JSON value as a collapsible tree: objects and arrays are `<details>` (open for the first
 * levels), leaves are shown inline with their type's colour.
 */
const openDepth = 2;

export function JsonTree(props: { value: unknown; name?: string; depth?: number }) {
  const depth = props.depth ?? 0;
  const { value, name } = props;
  const key = name === undefined ? null : <span class="json-key">{name}: </span>;
  if (value !== null && typeof value === 'object') {
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((item, index) => [String(index), item])
      : Object.entries(value as Record<string, unknown>);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    if (entries.length === 0) {
      return (
        <div class="json-leaf">
          {key}
          <span class="json-punct">{Array.isArray(value) ? '[]' : '{}'}</span>
        </div>
      );
    }
    return (
      <details class="json-node" open={depth < openDepth}>
        <summary>
          {key}
          <span class="json-punct">{summary}</span>
        </summary>
        <div class="json-children">
          {entries.map(([childName, child]) => (
            <JsonTree key={childName} name={childName} value={child} depth={depth + 1} />
          ))}
        </div>
      </details>
    );
  }
  const kind = value === null ? 'null' : typeof value;
  return (
    <div class="json-leaf">
      {key}
      <span class={`json-${kind}`}>{typeof value === 'string' ? JSON.stringify(value) : String(value)}</span>
    </div>
  );
}

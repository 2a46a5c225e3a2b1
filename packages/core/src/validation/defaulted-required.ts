/**
 * `required` names that also carry a `default`, dropped before validation. Many servers build their
 * schemas from zod with output typing (zod-to-json-schema, `z.toJSONSchema` with `io: 'output'`),
 * which lists a defaulted field as required *and* gives its default — while the server itself fills
 * the default in and accepts the call without it (Playwright MCP's `browser_take_screenshot` and
 * `scale`, for one). Our validator stands in front of the server: it must never refuse what the
 * server would accept, so a required property with a default counts as satisfied by that default.
 * The arguments sent are unchanged: the server applies its own default.
 */
import { isPlainObject } from '../schema/json-schema-utilities.js';
import type { JsonSchema } from '../tool-definition.js';

// Keywords whose value is one subschema, a list of them, or a record of them (2020-12, 2019-09 and
// draft-07 spellings alike).
const singleSubschema = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
] as const;
const subschemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
const subschemaRecords = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
  'dependencies',
] as const;

/**
 * The schema with every `required` entry whose property has a `default` removed, at every depth.
 * Returns the same object when nothing changes (the common case: no copy made).
 */
export function withoutDefaultedRequired(schema: JsonSchema): JsonSchema {
  return relax(schema) as JsonSchema;
}

function relax(node: unknown): unknown {
  if (!isPlainObject(node)) return node;
  let copy: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown) => {
    if (value === node[key]) return;
    copy ??= { ...node };
    copy[key] = value;
  };
  for (const key of singleSubschema) {
    if (isPlainObject(node[key])) set(key, relax(node[key]));
  }
  for (const key of subschemaLists) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const relaxed = list.map(relax);
    if (relaxed.some((entry, index) => entry !== list[index])) set(key, relaxed);
  }
  for (const key of subschemaRecords) {
    const record = node[key];
    if (!isPlainObject(record)) continue;
    let changed: Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(record)) {
      const relaxed = relax(value);
      if (relaxed === value) continue;
      changed ??= { ...record };
      changed[name] = relaxed;
    }
    if (changed) set(key, changed);
  }
  const required = node.required;
  const properties = node.properties;
  if (Array.isArray(required) && isPlainObject(properties)) {
    const kept = required.filter((name) => {
      const property = typeof name === 'string' ? properties[name] : undefined;
      return !(isPlainObject(property) && 'default' in property);
    });
    if (kept.length !== required.length) set('required', kept);
  }
  return copy ?? node;
}

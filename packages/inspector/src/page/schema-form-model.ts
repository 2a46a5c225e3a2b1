/**
 * What the generated call form needs to know of a JSON Schema: which control each property gets,
 * its first value, how values are cleaned before sending, and where an error of the validator
 * (a JSON Pointer) is shown. Pure functions, no DOM: the components in components/ render them.
 */
import type { JsonSchema } from './ui-types.js';

export type FieldKind =
  | 'string'
  | 'text'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'const'
  | 'array'
  | 'multiEnum'
  | 'object'
  | 'oneOf'
  | 'raw';

/** Strings longer than this (by `maxLength`) get a textarea. */
const longStringLength = 200;
/** Property names that usually hold long text. */
const longTextName =
  /(^|_|-)(body|content|text|code|script|prompt|markdown|html|sql|json|yaml|template|notes?)$/i;
/** `$ref` chains longer than this are shown as raw JSON (a cycle, or a schema too deep to form). */
const maxRefDepth = 16;

/** Resolves a local `$ref` (`#/$defs/X`, `#/definitions/X`) against the root schema; others are kept. */
export function resolveSchema(schema: JsonSchema | undefined, root: JsonSchema, depth = 0): JsonSchema {
  if (schema === undefined || typeof schema !== 'object') return {};
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth >= maxRefDepth) return schema;
  const target = ref
    .slice(1)
    .split('/')
    .filter((part) => part !== '')
    .map(unescapePointerPart)
    .reduce<unknown>((node, part) => (isRecord(node) ? node[part] : undefined), root);
  if (!isRecord(target)) return schema;
  const { $ref: _ref, ...siblings } = schema;
  return resolveSchema({ ...target, ...siblings }, root, depth + 1);
}

/** The `type` of a schema without `null` (`['string', 'null']` is a nullable string). */
function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  const types = Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
  if (typeof type === 'string') types.push(type);
  return types.filter((t) => t !== 'null');
}

/** The branches of a `oneOf` / `anyOf`. */
export function branchesOf(schema: JsonSchema): JsonSchema[] | undefined {
  const branches = schema.oneOf ?? schema.anyOf;
  if (!Array.isArray(branches)) return undefined;
  return branches.filter(isRecord);
}

/** Which control a property gets; `raw` (a JSON textarea) for what a form cannot say. */
export function fieldKind(schema: JsonSchema, name = ''): FieldKind {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return 'enum';
  if ('const' in schema) return 'const';
  const branches = branchesOf(schema);
  if (branches !== undefined) {
    const nonNull = branches.filter((branch) => !(branch.type === 'null'));
    // `anyOf: [X, {type: null}]` is a nullable X: the form shows X.
    if (nonNull.length === 1 && nonNull[0] !== undefined && branches.length === 2)
      return fieldKind(nonNull[0], name);
    if (nonNull.length > 0 && nonNull.every((branch) => 'const' in branch)) return 'enum';
    return nonNull.length > 0 ? 'oneOf' : 'raw';
  }
  if (schema.allOf !== undefined || schema.not !== undefined) return 'raw';
  const types = typesOf(schema);
  const type =
    types.length === 1 ? types[0] : types.length === 0 && isRecord(schema.properties) ? 'object' : undefined;
  switch (type) {
    case 'string':
      return isLongString(schema, name) ? 'text' : 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'array':
      if (!isRecord(schema.items)) return 'raw';
      // An array of enum values is a multi-select (elicitation's multi-select enums).
      return fieldKind(schema.items) === 'enum' ? 'multiEnum' : 'array';
    case 'object':
      return isRecord(schema.properties) && Object.keys(schema.properties).length > 0 ? 'object' : 'raw';
    default:
      return 'raw';
  }
}

function isLongString(schema: JsonSchema, name: string): boolean {
  if (typeof schema.maxLength === 'number') return schema.maxLength > longStringLength;
  if (typeof schema.contentMediaType === 'string') return true;
  if (typeof schema.format === 'string') return false;
  return longTextName.test(name);
}

/** The values of an `enum`, or of a `oneOf` of `const`s, with their labels. */
export function enumOptions(schema: JsonSchema): Array<{ value: unknown; label: string }> {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => ({ value, label: optionLabel(value) }));
  return (branchesOf(schema) ?? [])
    .filter((branch) => 'const' in branch)
    .map((branch) => ({
      value: branch.const,
      label: typeof branch.title === 'string' ? branch.title : optionLabel(branch.const),
    }));
}

function optionLabel(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The properties of an object schema, in order, with whether each is required. */
export function propertiesOf(
  schema: JsonSchema,
): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  return Object.entries(properties)
    .filter((entry): entry is [string, JsonSchema] => isRecord(entry[1]))
    .map(([name, property]) => ({ name, schema: property, required: required.has(name) }));
}

/** A label for a `oneOf` branch. */
export function branchLabel(branch: JsonSchema, index: number): string {
  if (typeof branch.title === 'string' && branch.title !== '') return branch.title;
  const keys = isRecord(branch.properties) ? Object.keys(branch.properties) : [];
  const types = typesOf(branch);
  if (keys.length > 0) return `${types[0] ?? 'object'} with ${keys.slice(0, 3).join(', ')}`;
  if (types.length > 0) return types.join(' | ');
  if (typeof branch.description === 'string') return branch.description.slice(0, 40);
  return `Option ${index + 1}`;
}

/** The branch a value fits best (the first one whose type and required keys it has), else 0. */
export function branchOfValue(branches: JsonSchema[], value: unknown, root: JsonSchema): number {
  const index = branches.findIndex((raw) => {
    const branch = resolveSchema(raw, root);
    const kind = fieldKind(branch);
    if (value === undefined) return false;
    if (kind === 'object') {
      if (!isRecord(value)) return false;
      return propertiesOf(branch).every((property) => !property.required || property.name in value);
    }
    if (kind === 'array') return Array.isArray(value);
    if (kind === 'number' || kind === 'integer') return typeof value === 'number';
    if (kind === 'boolean') return typeof value === 'boolean';
    if (kind === 'string' || kind === 'text') return typeof value === 'string';
    if (kind === 'const') return JSON.stringify(branch.const) === JSON.stringify(value);
    return false;
  });
  return Math.max(index, 0);
}

/** The first value of a field: its `default`, a `const`, a required boolean's `false`, an object's fields. */
export function initialValue(raw: JsonSchema, root: JsonSchema, required: boolean, name = ''): unknown {
  const schema = resolveSchema(raw, root);
  if ('default' in schema) return structuredClone(schema.default);
  const kind = fieldKind(schema, name);
  switch (kind) {
    case 'const':
      return schema.const;
    case 'boolean':
      return required ? false : undefined;
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const property of propertiesOf(schema)) {
        const first = initialValue(property.schema, root, property.required, property.name);
        if (first !== undefined) value[property.name] = first;
      }
      return value;
    }
    case 'array':
      return required ? [] : undefined;
    case 'oneOf': {
      const branch = branchesOf(schema)?.[0];
      return branch === undefined || !required ? undefined : initialValue(branch, root, true);
    }
    default:
      return undefined;
  }
}

/**
 * The arguments to send: unset fields (`undefined`) dropped, and an optional nested object left
 * empty dropped too — so that "not filled in" reads as absent to the validator, as it would from
 * a model that left the property out.
 */
export function pruneValue(value: unknown, keep: boolean): unknown {
  if (Array.isArray(value))
    return value.map((item) => pruneValue(item, true)).filter((item) => item !== undefined);
  if (isRecord(value)) {
    const pruned: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const next = pruneValue(child, false);
      if (next !== undefined) pruned[key] = next;
    }
    return Object.keys(pruned).length === 0 && !keep ? undefined : pruned;
  }
  return value;
}

/** The JSON Pointer of a path (`['items', 0, 'name']` → `/items/0/name`). */
export function toPointer(path: ReadonlyArray<string | number>): string {
  return path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** A DOM id for a field, unique within its form (`prefix` tells the forms of a page apart). */
export function fieldId(prefix: string, path: ReadonlyArray<string | number>): string {
  const tail = path.map((part) =>
    String(part).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`),
  );
  return [prefix, 'f', ...tail].join('-');
}

/** The value with `path` set to `next` (copies along the path, never mutates). */
export function setAt(value: unknown, path: ReadonlyArray<string | number>, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string | number, ...Array<string | number>];
  if (typeof head === 'number') {
    const array = Array.isArray(value) ? [...value] : [];
    array[head] = setAt(array[head], rest, next);
    return array;
  }
  const record = isRecord(value) ? { ...value } : {};
  const child = setAt(record[head], rest, next);
  if (child === undefined) delete record[head];
  else record[head] = child;
  return record;
}

/**
 * Every pointer the form renders a field for, given the current value: the validator's errors
 * are shown at the deepest of these on their path (an error at `/owner/name` of an unrendered
 * branch lands on `/owner`).
 */
export function fieldPointers(
  raw: JsonSchema,
  root: JsonSchema,
  value: unknown,
  path: Array<string | number> = [],
): Set<string> {
  const pointers = new Set<string>([toPointer(path)]);
  const schema = resolveSchema(raw, root);
  const kind = fieldKind(schema, String(path[path.length - 1] ?? ''));
  const add = (more: Set<string>) => {
    for (const pointer of more) pointers.add(pointer);
  };
  if (kind === 'object') {
    for (const property of propertiesOf(schema)) {
      const child = isRecord(value) ? value[property.name] : undefined;
      add(fieldPointers(property.schema, root, child, [...path, property.name]));
    }
  } else if (kind === 'array' && Array.isArray(value) && isRecord(schema.items)) {
    for (const [index, item] of value.entries()) {
      add(fieldPointers(schema.items as JsonSchema, root, item, [...path, index]));
    }
  } else if (kind === 'oneOf') {
    const branches = branchesOf(schema) ?? [];
    const branch = branches[branchOfValue(branches, value, root)];
    if (branch !== undefined) {
      for (const pointer of fieldPointers(branch, root, value, path)) pointers.add(pointer);
    }
  }
  return pointers;
}

/** Assigns each error to the deepest rendered field on its path (`''`: the form as a whole). */
export function placeErrors(
  errors: ReadonlyArray<{ path: string; message: string }>,
  pointers: ReadonlySet<string>,
): Map<string, string[]> {
  const placed = new Map<string, string[]>();
  for (const error of errors) {
    let pointer = error.path;
    while (pointer !== '' && !pointers.has(pointer)) pointer = pointer.slice(0, pointer.lastIndexOf('/'));
    placed.set(pointer, [...(placed.get(pointer) ?? []), error.message]);
  }
  return placed;
}

/** A field's hint: its schema's `title` (when it says more than the name) and `description`. */
export function fieldHint(schema: JsonSchema, name: string): string | undefined {
  const title = typeof schema.title === 'string' && schema.title !== name ? schema.title : undefined;
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const hint = [title, description].filter((part) => part !== undefined && part !== '').join(' — ');
  return hint === '' ? undefined : hint;
}

/** A short type note for a field's label (`integer ≥ 0`, `string, email`). */
export function typeNote(schema: JsonSchema, kind: FieldKind): string {
  const notes: string[] = [
    kind === 'text' ? 'string' : kind === 'raw' ? 'JSON' : kind === 'multiEnum' ? 'any of' : kind,
  ];
  if (typeof schema.format === 'string') notes.push(schema.format);
  if (typeof schema.minimum === 'number') notes.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === 'number') notes.push(`≤ ${schema.maximum}`);
  if (typeof schema.minLength === 'number') notes.push(`min length ${schema.minLength}`);
  if (typeof schema.maxLength === 'number') notes.push(`max length ${schema.maxLength}`);
  return notes.join(', ');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unescapePointerPart(part: string): string {
  return decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * A `oneOf` branch with what its parent says besides (`type`, `properties`, `required`): the
 * common `{ properties: {a, b}, oneOf: [{ required: [a] }, { required: [b] }] }` then forms as an
 * object in each branch.
 */
export function mergeBranch(parent: JsonSchema, branch: JsonSchema): JsonSchema {
  const {
    oneOf: _oneOf,
    anyOf: _anyOf,
    title: _title,
    description: _description,
    default: _default,
    ...rest
  } = parent;
  if (Object.keys(rest).length === 0) return branch;
  const merged: JsonSchema = { ...rest, ...branch };
  if (isRecord(rest.properties) || isRecord(branch.properties)) {
    merged.properties = {
      ...(isRecord(rest.properties) ? rest.properties : {}),
      ...(isRecord(branch.properties) ? branch.properties : {}),
    };
  }
  const required = [
    ...(Array.isArray(rest.required) ? rest.required : []),
    ...(Array.isArray(branch.required) ? branch.required : []),
  ];
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

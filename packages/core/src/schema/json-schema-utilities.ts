/**
 * Small helpers shared by the schema converters and checkers.
 */
import type { JsonSchema } from '../tool-definition.js';

/** JSON Schema primitive type names. */
export type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** True for a plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `type` keyword as a list (empty when absent). */
export function typeList(schema: JsonSchema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

/** The JSON type name of a value, distinguishing integers. */
export function jsonTypeOf(value: unknown): JsonTypeName | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object')
    return typeof value as JsonTypeName;
  return 'undefined';
}

/** The schema's `properties` as a record of subschemas (empty when absent). */
export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const properties = schema.properties;
  if (!isPlainObject(properties)) return {};
  const result: Record<string, JsonSchema> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (isPlainObject(value)) result[key] = value;
  }
  return result;
}

/** The schema's `required` list (empty when absent). */
export function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((entry): entry is string => typeof entry === 'string')
    : [];
}

/** True when the schema describes (only or among others) objects. */
export function isObjectSchema(schema: JsonSchema): boolean {
  const types = typeList(schema);
  if (types.includes('object')) return true;
  return (
    types.length === 0 && (isPlainObject(schema.properties) || schema.additionalProperties !== undefined)
  );
}

/** Deterministic JSON text: object keys sorted, so equal schemas give equal text. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableStringify(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Deep equality of JSON values. */
export function jsonEqual(left: unknown, right: unknown): boolean {
  return stableStringify(left) === stableStringify(right);
}

/** Shortens text for messages, marking the cut. */
export function truncateText(text: string, maximum: number): string {
  if (text.length <= maximum) return text;
  return `${text.slice(0, Math.max(0, maximum))}… (${text.length - maximum} more characters)`;
}

/** Adds a sentence to a schema's description (for constraints a target cannot express). */
export function appendDescription(schema: JsonSchema, sentence: string): void {
  const current = typeof schema.description === 'string' ? schema.description.trim() : '';
  schema.description =
    current === '' ? sentence : `${current}${/[.!?]$/.test(current) ? '' : '.'} ${sentence}`;
}

const typeSpecificKeywords: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: [
    'items',
    'prefixItems',
    'minItems',
    'maxItems',
    'uniqueItems',
    'contains',
    'minContains',
    'maxContains',
  ],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'minProperties',
    'maxProperties',
    'propertyNames',
    'dependentRequired',
    'dependentSchemas',
  ],
};

/** The schema narrowed to one type: `type` set to it, keywords that only apply to other types removed. */
export function narrowToType(schema: JsonSchema, type: string): JsonSchema {
  const own = typeSpecificKeywords[type === 'integer' ? 'number' : type] ?? [];
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const belongsElsewhere = Object.values(typeSpecificKeywords).some((keywords) => keywords.includes(key));
    if (belongsElsewhere && !own.includes(key)) continue;
    result[key] = value;
  }
  result.type = type;
  return result;
}

/**
 * A small deterministic generator of JSON values from a JSON Schema (JSON Schema or Gemini's
 * upper-case OpenAPI subset), for property-style tests: values generated from a converted schema
 * must validate against the original one.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../src/index.js';
import { schemaDialect } from '../src/index.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A seeded pseudo-random source in [0, 1) (mulberry32). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Options of {@link generateValue}. */
export interface GenerateOptions {
  /** Only required properties and the fewest array items. @default false */
  minimal?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

function formatted(format: string, n: number): string | undefined {
  switch (format) {
    case 'email':
      return `user${n}@example.com`;
    case 'uri':
    case 'url':
      return `https://example.com/item/${n}`;
    case 'date-time':
      return `2024-0${(n % 9) + 1}-1${n % 10}T10:20:30Z`;
    case 'date':
      return `2024-0${(n % 9) + 1}-1${n % 10}`;
    case 'time':
      return '10:20:30Z';
    case 'uuid':
      return `123e4567-e89b-42d3-a456-${String(426614174000 + n).padStart(12, '0')}`;
    case 'ipv4':
      return `192.0.2.${n % 255}`;
    case 'ipv6':
      return `2001:db8::${(n % 65535).toString(16)}`;
    case 'hostname':
      return `host${n}.example.com`;
    case 'duration':
      return `P${(n % 9) + 1}D`;
    default:
      return undefined;
  }
}

/** Generates one value that the schema accepts (for the keywords the generator knows). */
export function generateValue(
  schema: JsonSchema,
  random: () => number,
  options: GenerateOptions = {},
  depth = 0,
): unknown {
  if (schema.const !== undefined) return structuredClone(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.nullable === true ? [...schema.enum, null] : schema.enum;
    return structuredClone(pick(random, values));
  }
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    if (schema.nullable === true && random() < 0.2) return null;
    const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = schema;
    return generateValue({ ...siblings, ...pick(random, union) }, random, options, depth + 1);
  }
  let types: string[] = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  types = types.map((type) => type.toLowerCase());
  if (schema.nullable === true) types.push('null');
  if (types.length === 0) {
    if (isObject(schema.properties)) types = ['object'];
    else if (schema.items !== undefined || schema.prefixItems !== undefined) types = ['array'];
    else types = ['string', 'number', 'boolean'];
  }
  // Null only sometimes, so that nullable values still exercise their other type.
  const nonNull = types.filter((type) => type !== 'null');
  const type =
    nonNull.length > 0 && (types.length === nonNull.length || random() < 0.7)
      ? pick(random, nonNull)
      : 'null';
  const n = Math.floor(random() * 1000);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return random() < 0.5;
    case 'string': {
      const fromFormat = typeof schema.format === 'string' ? formatted(schema.format, n) : undefined;
      if (fromFormat !== undefined) return fromFormat;
      const minimum = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const maximum = typeof schema.maxLength === 'number' ? schema.maxLength : minimum + 12;
      const length = minimum + Math.floor(random() * (maximum - minimum + 1));
      let text = '';
      while (text.length < length) text += String.fromCharCode(97 + Math.floor(random() * 26));
      return text;
    }
    case 'integer':
    case 'number': {
      let low = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      let high = typeof schema.maximum === 'number' ? schema.maximum : 1000;
      if (typeof schema.exclusiveMinimum === 'number') low = Math.max(low, schema.exclusiveMinimum + 1);
      if (typeof schema.exclusiveMaximum === 'number') high = Math.min(high, schema.exclusiveMaximum - 1);
      if (type === 'integer' || typeof schema.multipleOf === 'number') {
        const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : 1;
        const first = Math.ceil(low / step);
        const last = Math.floor(high / step);
        return (first + Math.floor(random() * (last - first + 1))) * step;
      }
      return Math.round((low + random() * (high - low)) * 100) / 100;
    }
    case 'array': {
      const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as JsonSchema[]) : [];
      const minimum = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maximum = Math.min(
        typeof schema.maxItems === 'number' ? schema.maxItems : minimum + 3,
        minimum + 3,
      );
      const restAllowed = schema.items !== false;
      let length =
        options.minimal || depth > 8 ? minimum : minimum + Math.floor(random() * (maximum - minimum + 1));
      if (!restAllowed) length = Math.min(length, prefix.length);
      const result: unknown[] = [];
      const seen = new Set<string>();
      for (let index = 0, attempts = 0; result.length < length && attempts < length * 20; attempts++) {
        const itemSchema = prefix[index] ?? (isObject(schema.items) ? (schema.items as JsonSchema) : {});
        const item = generateValue(itemSchema, random, options, depth + 1);
        if (schema.uniqueItems === true) {
          const key = JSON.stringify(item);
          if (seen.has(key)) continue;
          seen.add(key);
        }
        result.push(item);
        index++;
      }
      return result;
    }
    case 'object': {
      const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (!required.has(name) && (options.minimal || depth > 8 || random() < 0.5)) continue;
        result[name] = generateValue(property, random, options, depth + 1);
      }
      return result;
    }
    default:
      return null;
  }
}

/** Validates values against original (unconverted) schemas with plain ajv, by the schema's dialect. */
export function createJudge(): (schema: JsonSchema, value: unknown) => string[] {
  const options = { allErrors: true, strict: false, logger: false } as const;
  const draft07 = new Ajv(options);
  const draft2020 = new Ajv2020(options);
  addFormats(draft07);
  addFormats(draft2020);
  const compiled = new WeakMap<JsonSchema, ValidateFunction>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = (schemaDialect(schema) === 'draft-07' ? draft07 : draft2020).compile(
        structuredClone(schema),
      );
      compiled.set(schema, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? error.keyword}`);
  };
}

/**
 * Conversion of a tool's JSON Schema into a zod 4 schema, for frameworks that describe tool
 * parameters with zod (the Vercel AI SDK, LangChain.js, Mastra).
 */
import { z } from 'zod';
import type { JsonSchema } from '../tool-definition.js';
import {
  isPlainObject,
  jsonEqual,
  propertiesOf,
  requiredOf,
  stableStringify,
  typeList,
} from './json-schema-utilities.js';
import { appendPointer, type ConversionResult, displayPointer, type LossyChange } from './lossy-change.js';
import { mergeSchemas, normalizeSchema } from './normalize-schema.js';

type Literal = string | number | boolean | null;

const isLiteral = (value: unknown): value is Literal =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

// Keywords that only annotate, or that the builders below read; anything else is reported.
const understood = new Set([
  'type',
  'description',
  'title',
  'default',
  'examples',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'format',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'contentMediaType',
  'contentEncoding',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

/**
 * Converts a tool's input schema (draft-07 or 2020-12) to a zod 4 schema. Objects, optional and
 * required properties, nullable types, enums, const, arrays, tuples, unions, string formats and
 * bounds, numbers and integers, additional properties, defaults and descriptions are carried over;
 * what zod cannot check is listed in `lossy`.
 */
export function toZodSchema(schema: JsonSchema): ConversionResult<z.ZodType> {
  const normalised = normalizeSchema(schema);
  const lossy: LossyChange[] = [...normalised.lossy];
  const report = (path: string, kind: string, message: string): void => {
    lossy.push({ path: displayPointer(path), kind, message });
  };

  const build = (node: JsonSchema, path: string): z.ZodType => {
    for (const key of Object.keys(node)) {
      if (!understood.has(key) && !(key === 'not' && isNever(node))) {
        report(
          appendPointer(path, key),
          'removed-keyword',
          `\`${key}\` has no zod equivalent and is not checked by the zod schema.`,
        );
      }
    }
    return annotate(buildType(node, path), node);
  };

  const buildType = (node: JsonSchema, path: string): z.ZodType => {
    if (isNever(node)) return z.never();
    if (node.const !== undefined) return literalOf(node.const);
    if (Array.isArray(node.enum)) return enumOf(node.enum, appendPointer(path, 'enum'));
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      const { [keyword]: _removed, ...siblings } = node;
      const hasSiblings = Object.keys(siblings).some(
        (key) => !['description', 'title', 'default'].includes(key),
      );
      const options = branches.map((branch, index) => {
        const branchPath = appendPointer(appendPointer(path, keyword), index);
        const merged = hasSiblings
          ? mergeSchemas(stripAnnotations(siblings), branch, branchPath, lossy)
          : branch;
        return build(merged, branchPath);
      });
      if (options.length === 1) return options[0] as z.ZodType;
      const [first, second, ...rest] = options as [z.ZodType, z.ZodType, ...z.ZodType[]];
      return keyword === 'oneOf' ? z.xor([first, second, ...rest]) : z.union([first, second, ...rest]);
    }
    let types = typeList(node);
    if (types.length === 0) {
      if (node.properties !== undefined || node.additionalProperties !== undefined) types = ['object'];
      else if (node.items !== undefined || node.prefixItems !== undefined) types = ['array'];
      else return z.unknown();
    }
    const nullable = types.includes('null');
    const concrete = types.filter((type) => type !== 'null');
    // `integer` is a subset of `number`: when both are listed, `number` says it all.
    const distinct = concrete.includes('number') ? concrete.filter((type) => type !== 'integer') : concrete;
    const built = distinct.map((type) => buildOfType(type, node, path));
    let result: z.ZodType;
    if (built.length === 0) result = z.null();
    else if (built.length === 1) result = built[0] as z.ZodType;
    else {
      const [first, second, ...rest] = built as [z.ZodType, z.ZodType, ...z.ZodType[]];
      result = z.union([first, second, ...rest]);
    }
    return nullable && built.length > 0 ? result.nullable() : result;
  };

  const buildOfType = (type: string, node: JsonSchema, path: string): z.ZodType => {
    switch (type) {
      case 'string':
        return buildString(node, path);
      case 'number':
      case 'integer':
        return buildNumber(node, type === 'integer', path);
      case 'boolean':
        return z.boolean();
      case 'null':
        return z.null();
      case 'array':
        return buildArray(node, path);
      case 'object':
        return buildObject(node, path);
      default:
        report(
          appendPointer(path, 'type'),
          'removed-keyword',
          `Unknown type \`${type}\` accepts any value in zod.`,
        );
        return z.unknown();
    }
  };

  const buildString = (node: JsonSchema, path: string): z.ZodType => {
    let result: z.ZodString = z.string();
    if (typeof node.format === 'string') {
      const formatted = stringFormat(node.format);
      if (formatted === undefined) {
        report(
          appendPointer(path, 'format'),
          'removed-keyword',
          `String format \`${node.format}\` is not checked by the zod schema.`,
        );
      } else {
        result = formatted as unknown as z.ZodString;
      }
    }
    if (typeof node.minLength === 'number') result = result.min(node.minLength);
    if (typeof node.maxLength === 'number') result = result.max(node.maxLength);
    if (typeof node.pattern === 'string') {
      try {
        result = result.regex(new RegExp(node.pattern, 'u'));
      } catch {
        report(
          appendPointer(path, 'pattern'),
          'removed-keyword',
          `Pattern ${JSON.stringify(node.pattern)} is not a valid JavaScript regular expression and is not checked.`,
        );
      }
    }
    return result;
  };

  const buildNumber = (node: JsonSchema, integer: boolean, path: string): z.ZodType => {
    let result = z.number();
    if (integer) result = result.int();
    if (typeof node.minimum === 'number') result = result.gte(node.minimum);
    if (typeof node.maximum === 'number') result = result.lte(node.maximum);
    if (typeof node.exclusiveMinimum === 'number') result = result.gt(node.exclusiveMinimum);
    if (typeof node.exclusiveMaximum === 'number') result = result.lt(node.exclusiveMaximum);
    for (const keyword of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
      if (typeof node[keyword] === 'boolean') {
        report(
          appendPointer(path, keyword),
          'removed-keyword',
          `Draft-04 boolean \`${keyword}\` is not supported; the bound is inclusive in the zod schema.`,
        );
      }
    }
    if (typeof node.multipleOf === 'number') result = result.multipleOf(node.multipleOf);
    return result;
  };

  const buildArray = (node: JsonSchema, path: string): z.ZodType => {
    const minimum = typeof node.minItems === 'number' ? node.minItems : undefined;
    const maximum = typeof node.maxItems === 'number' ? node.maxItems : undefined;
    let result: z.ZodType;
    if (Array.isArray(node.prefixItems)) {
      const elements = node.prefixItems.map((item, index) => {
        const element = build(item as JsonSchema, appendPointer(appendPointer(path, 'prefixItems'), index));
        // A JSON Schema tuple may be shorter than its prefix unless minItems says otherwise.
        return index >= (minimum ?? 0) ? element.optional() : element;
      });
      const rest =
        node.items === false
          ? undefined
          : isPlainObject(node.items)
            ? build(node.items, appendPointer(path, 'items'))
            : z.unknown();
      const tuple: z.ZodType<unknown[]> =
        rest === undefined ? z.tuple(elements as [z.ZodType]) : z.tuple(elements as [z.ZodType], rest);
      result = tuple.refine(
        (value: unknown[]) =>
          (minimum === undefined || value.length >= minimum) &&
          (maximum === undefined || value.length <= maximum),
        { message: `Expected between ${minimum ?? 0} and ${maximum ?? 'any number of'} items.` },
      );
    } else {
      const items = isPlainObject(node.items) ? build(node.items, appendPointer(path, 'items')) : z.unknown();
      let array = z.array(node.items === false ? z.never() : items);
      if (minimum !== undefined) array = array.min(minimum);
      if (maximum !== undefined) array = array.max(maximum);
      result = array;
    }
    if (node.uniqueItems === true) {
      result = result.refine(
        (value) => {
          const seen = new Set((value as unknown[]).map(stableStringify));
          return seen.size === (value as unknown[]).length;
        },
        { message: 'Items must be unique.' },
      );
    }
    return result;
  };

  const buildObject = (node: JsonSchema, path: string): z.ZodType => {
    const required = new Set(requiredOf(node));
    const shape: Record<string, z.ZodType> = {};
    for (const [name, property] of Object.entries(propertiesOf(node))) {
      const propertyPath = appendPointer(appendPointer(path, 'properties'), name);
      const built = build(property, propertyPath);
      let field: z.ZodType = built;
      if (!required.has(name)) {
        field =
          property.default !== undefined
            ? built.default(structuredClone(property.default) as never)
            : built.optional();
        // Wrappers hide the inner description from readers of the shape (JSON Schema generators, UIs).
        if (typeof property.description === 'string') field = field.describe(property.description);
      }
      shape[name] = field;
    }
    for (const name of required) {
      // Required but undescribed: any value, but it must be present.
      if (!(name in shape))
        shape[name] = z.unknown().refine((value) => value !== undefined, `\`${name}\` is required.`);
    }
    let result: z.ZodType;
    const additional = node.additionalProperties;
    if (additional === false) result = z.strictObject(shape);
    else if (isPlainObject(additional)) {
      result = z.object(shape).catchall(build(additional, appendPointer(path, 'additionalProperties')));
    } else result = z.looseObject(shape);
    const minimum = typeof node.minProperties === 'number' ? node.minProperties : undefined;
    const maximum = typeof node.maxProperties === 'number' ? node.maxProperties : undefined;
    if (minimum !== undefined || maximum !== undefined) {
      result = result.refine(
        (value) => {
          const count = Object.keys(value as object).length;
          return (minimum === undefined || count >= minimum) && (maximum === undefined || count <= maximum);
        },
        { message: `Expected between ${minimum ?? 0} and ${maximum ?? 'any number of'} properties.` },
      );
    }
    if (isPlainObject(node.dependentRequired)) {
      const dependencies = node.dependentRequired as Record<string, string[]>;
      result = result.superRefine((value, context) => {
        const record = value as Record<string, unknown>;
        for (const [name, needed] of Object.entries(dependencies)) {
          if (!(name in record)) continue;
          for (const other of needed) {
            if (!(other in record))
              context.addIssue({
                code: 'custom',
                message: `\`${other}\` is required when \`${name}\` is given.`,
              });
          }
        }
      });
    }
    return result;
  };

  const enumOf = (values: unknown[], path: string): z.ZodType => {
    if (values.length > 0 && values.every((value): value is string => typeof value === 'string')) {
      return z.enum(values as [string, ...string[]]);
    }
    const options = values.map(literalOf);
    if (options.length === 0) {
      report(path, 'removed-keyword', 'An empty enum allows no value.');
      return z.never();
    }
    if (options.length === 1) return options[0] as z.ZodType;
    const [first, second, ...rest] = options as [z.ZodType, z.ZodType, ...z.ZodType[]];
    return z.union([first, second, ...rest]);
  };

  return { result: build(normalised.result, ''), lossy };
}

function isNever(node: JsonSchema): boolean {
  return isPlainObject(node.not) && Object.keys(node.not).length === 0;
}

function literalOf(value: unknown): z.ZodType {
  if (isLiteral(value)) return z.literal(value);
  return z.custom((candidate) => jsonEqual(candidate, value), {
    message: `Expected ${stableStringify(value)}.`,
  });
}

function stringFormat(format: string): z.ZodType | undefined {
  switch (format) {
    case 'email':
      return z.email();
    case 'uri':
    case 'url':
      return z.url();
    case 'uuid':
      return z.uuid();
    case 'date-time':
      return z.iso.datetime({ offset: true });
    case 'date':
      return z.iso.date();
    case 'duration':
      return z.iso.duration();
    case 'ipv4':
      return z.ipv4();
    case 'ipv6':
      return z.ipv6();
    case 'hostname':
      return z.hostname();
    default:
      return undefined;
  }
}

function stripAnnotations(schema: JsonSchema): JsonSchema {
  const { description: _description, title: _title, default: _default, ...rest } = schema;
  return rest;
}

function annotate(result: z.ZodType, node: JsonSchema): z.ZodType {
  const meta: Record<string, unknown> = {};
  if (typeof node.title === 'string') meta.title = node.title;
  if (Array.isArray(node.examples)) meta.examples = node.examples;
  let annotated = Object.keys(meta).length > 0 ? result.meta(meta) : result;
  if (typeof node.description === 'string') annotated = annotated.describe(node.description);
  return annotated;
}

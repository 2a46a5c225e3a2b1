/**
 * Conversion of an MCP tool into an OpenAI function tool, including strict mode (Structured
 * Outputs): every property required, optional ones nullable, `additionalProperties: false`
 * everywhere, unsupported keywords removed or moved into descriptions.
 */
import type { JsonSchema } from '../tool-definition.js';
import { checkToolName, checkToolSchema } from './check-tool-schema.js';
import { type ConvertibleTool, toolDescription } from './convertible-tool.js';
import {
  appendDescription,
  isPlainObject,
  narrowToType,
  propertiesOf,
  requiredOf,
  stableStringify,
  typeList,
} from './json-schema-utilities.js';
import { appendPointer, type ConversionResult, displayPointer, type LossyChange } from './lossy-change.js';
import { normalizeSchema } from './normalize-schema.js';
import {
  openAIStrictCommonKeywords,
  openAIStrictFormats,
  openAIStrictTypeKeywords,
} from './provider-schema-rules.js';
import { toRootObjectSchema } from './root-object-schema.js';
import { convertUnionBranches } from './union-branches.js';

/** An OpenAI function tool (Chat Completions `tools[]` entry). */
export interface OpenAIFunctionTool {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: JsonSchema;
    strict: boolean;
  };
}

/** Options of {@link toOpenAITool}. */
export interface ToOpenAIToolOptions {
  /** Produce a strict-mode (Structured Outputs) schema. @default false */
  strict?: boolean;
}

// Constraints strict mode cannot enforce, but a model can still read in the description.
const describable = new Set([
  'default',
  'minLength',
  'maxLength',
  'format',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'examples',
  'contentMediaType',
  'contentEncoding',
]);

const anyJsonValue = (): JsonSchema => ({
  anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
});

/**
 * Converts an MCP tool to an OpenAI function tool. The schema is normalised (references inlined,
 * `allOf` merged); with `strict: true` it is rewritten into OpenAI's strict subset. Any remaining
 * violation of strict-mode limits (depth, size) is listed in `lossy` as `target-limit-exceeded`.
 */
export function toOpenAITool(
  tool: ConvertibleTool,
  options: ToOpenAIToolOptions = {},
): ConversionResult<OpenAIFunctionTool> {
  const strict = options.strict ?? false;
  const normalised = normalizeSchema(tool.inputSchema);
  const lossy: LossyChange[] = [...normalised.lossy];
  let parameters = toRootObjectSchema(normalised.result, lossy);
  if (strict) parameters = toStrictSchema(parameters, '', lossy);
  const target = strict ? 'openai-strict' : 'openai';
  for (const problem of [...checkToolName(tool.name, target), ...checkToolSchema(parameters, target)]) {
    if (problem.severity !== 'error') continue;
    lossy.push({ path: problem.path, kind: 'target-limit-exceeded', message: problem.message });
  }
  return {
    result: {
      type: 'function',
      function: { name: tool.name, description: toolDescription(tool), parameters, strict },
    },
    lossy,
  };
}

function report(lossy: LossyChange[], path: string, kind: string, message: string): void {
  lossy.push({ path: displayPointer(path), kind, message });
}

function toStrictSchema(node: JsonSchema, path: string, lossy: LossyChange[]): JsonSchema {
  if (isPlainObject(node.not) && Object.keys(node).length === 1) {
    report(
      lossy,
      path,
      'removed-keyword',
      'A schema that accepts nothing cannot be expressed; it accepts null.',
    );
    return { type: 'null' };
  }
  const union = convertUnionBranches(node, path, lossy, (branch, branchPath) =>
    toStrictSchema(branch, branchPath, lossy),
  );
  if (union !== undefined) {
    const { branches, description, title } = union;
    const result: JsonSchema = { anyOf: branches };
    if (typeof description === 'string') result.description = description;
    if (typeof title === 'string') result.title = title;
    return result;
  }

  let types = typeList(node);
  if (types.length === 0) {
    if (node.properties !== undefined || node.additionalProperties !== undefined) types = ['object'];
    else if (node.items !== undefined || node.prefixItems !== undefined) types = ['array'];
    else if (Array.isArray(node.enum) || node.const !== undefined) {
      const values = Array.isArray(node.enum) ? node.enum : [node.const];
      types = [
        ...new Set(
          values.map((value) =>
            value === null
              ? 'null'
              : Array.isArray(value)
                ? 'array'
                : Number.isInteger(value)
                  ? 'integer'
                  : typeof value,
          ),
        ),
      ];
      if (types.includes('integer') && types.includes('number'))
        types = types.filter((type) => type !== 'integer');
    } else {
      report(
        lossy,
        path,
        'union-approximated',
        'An unconstrained schema (any JSON value) became a string, number, boolean or null: objects and arrays are no longer offered.',
      );
      const any = anyJsonValue();
      if (typeof node.description === 'string') any.description = node.description;
      return any;
    }
  }
  const nonNull = types.filter((type) => type !== 'null');
  if (nonNull.length > 1 && !Array.isArray(node.enum)) {
    // Different types carry different keywords: one branch per type keeps each type's keywords.
    const branches = nonNull.map((type) =>
      toStrictSchema({ ...narrowToType(node, type), description: undefined }, path, lossy),
    );
    if (types.includes('null')) branches.push({ type: 'null' });
    const result: JsonSchema = { anyOf: branches.map(withoutUndefined) };
    if (typeof node.description === 'string') result.description = node.description;
    return result;
  }

  const allowed = new Set(openAIStrictCommonKeywords);
  for (const type of types) for (const keyword of openAIStrictTypeKeywords[type] ?? []) allowed.add(keyword);
  const result: JsonSchema = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    const keyPath = appendPointer(path, key);
    if (key === 'format' && typeof value === 'string' && !openAIStrictFormats.has(value)) {
      notes.push(`Format: ${value}.`);
      report(
        lossy,
        keyPath,
        'moved-to-description',
        `Format \`${value}\` is not supported in strict mode; it was moved into the description.`,
      );
      continue;
    }
    if (allowed.has(key)) {
      result[key] = value;
      continue;
    }
    if (['properties', 'items', 'prefixItems', 'additionalProperties', 'required'].includes(key)) continue;
    if (describable.has(key)) {
      notes.push(describeConstraint(key, value));
      report(
        lossy,
        keyPath,
        'moved-to-description',
        `\`${key}\` is not supported in strict mode; it was moved into the description.`,
      );
    } else {
      report(
        lossy,
        keyPath,
        'removed-keyword',
        `\`${key}\` is not supported in strict mode and was removed.`,
      );
    }
  }
  result.type = types.length === 1 ? types[0] : types;
  if (Array.isArray(result.enum) && types.includes('null') && !result.enum.includes(null)) {
    result.enum = [...result.enum, null];
  }

  if (nonNull[0] === 'array') {
    if (Array.isArray(node.prefixItems)) {
      const prefix = node.prefixItems as JsonSchema[];
      const options: JsonSchema[] = [...prefix];
      if (isPlainObject(node.items)) options.push(node.items);
      const distinct = [...new Map(options.map((option) => [stableStringify(option), option])).values()];
      const itemSchema: JsonSchema =
        distinct.length === 1 ? (distinct[0] as JsonSchema) : { anyOf: distinct };
      result.items = toStrictSchema(itemSchema, appendPointer(path, 'prefixItems'), lossy);
      if (node.items === false && typeof result.maxItems !== 'number') result.maxItems = prefix.length;
      notes.push(
        `Positions: ${prefix.map((_item, index) => `#${index + 1}`).join(', ')} as listed in the tool's schema.`,
      );
      report(
        lossy,
        appendPointer(path, 'prefixItems'),
        'tuple-approximated',
        `A tuple of ${prefix.length} positions became an array whose items may be any of the position schemas; the order is no longer enforced.`,
      );
    } else if (isPlainObject(node.items)) {
      result.items = toStrictSchema(node.items, appendPointer(path, 'items'), lossy);
    } else {
      result.items = anyJsonValue();
      report(
        lossy,
        appendPointer(path, 'items'),
        'union-approximated',
        'Array items of any type became string, number, boolean or null.',
      );
    }
  }

  if (nonNull[0] === 'object') {
    const properties = propertiesOf(node);
    const required = new Set(requiredOf(node));
    const strictProperties: Record<string, JsonSchema> = {};
    for (const [name, property] of Object.entries(properties)) {
      const propertyPath = appendPointer(appendPointer(path, 'properties'), name);
      let converted = toStrictSchema(property, propertyPath, lossy);
      if (!required.has(name)) {
        converted = makeNullable(converted);
        report(
          lossy,
          propertyPath,
          'made-nullable',
          `Optional \`${name}\` is required and nullable in strict mode: the model sends null to leave it out (removeStrictModeNulls strips such nulls before the call).`,
        );
      }
      strictProperties[name] = converted;
    }
    result.properties = strictProperties;
    result.required = Object.keys(strictProperties);
    result.additionalProperties = false;
    const additional = node.additionalProperties;
    if (additional !== undefined && additional !== false) {
      report(
        lossy,
        appendPointer(path, 'additionalProperties'),
        'closed-object',
        Object.keys(properties).length === 0
          ? 'A map of arbitrary keys cannot be expressed in strict mode: the object accepts no keys.'
          : 'Additional properties are not allowed in strict mode; only the listed properties can be sent.',
      );
    }
  }

  if (notes.length > 0) appendDescription(result, notes.join(' '));
  return result;
}

function withoutUndefined(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

function describeConstraint(key: string, value: unknown): string {
  switch (key) {
    case 'default':
      return `Default: ${stableStringify(value)}.`;
    case 'minLength':
      return `At least ${String(value)} character${value === 1 ? '' : 's'}.`;
    case 'maxLength':
      return `At most ${String(value)} character${value === 1 ? '' : 's'}.`;
    case 'uniqueItems':
      return value === true ? 'Items must be unique.' : '';
    case 'minProperties':
      return `At least ${String(value)} properties.`;
    case 'maxProperties':
      return `At most ${String(value)} properties.`;
    case 'examples':
      return `Examples: ${Array.isArray(value) ? value.map((example) => stableStringify(example)).join(', ') : stableStringify(value)}.`;
    default:
      return `${key}: ${stableStringify(value)}.`;
  }
}

/** Makes a strict-mode schema also accept null. */
function makeNullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) {
    const hasNull = schema.anyOf.some((branch) => isPlainObject(branch) && branch.type === 'null');
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  if (schema.const !== undefined && schema.type === undefined) {
    const { description, ...rest } = schema;
    return { anyOf: [rest, { type: 'null' }], ...(description === undefined ? {} : { description }) };
  }
  const types = typeList(schema);
  if (types.includes('null')) return schema;
  const result: JsonSchema = { ...schema, type: [...types, 'null'] };
  if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null];
  if (result.const !== undefined) {
    const { const: constant, description, ...rest } = result;
    return {
      anyOf: [{ ...rest, type: types.length === 1 ? types[0] : types, const: constant }, { type: 'null' }],
      ...(description === undefined ? {} : { description }),
    };
  }
  return result;
}

/**
 * Conversion of an MCP tool into a Gemini function declaration, whose parameters use Gemini's
 * subset of the OpenAPI 3.0 schema: upper-case type names, `nullable`, string enums, no `$ref`,
 * no `additionalProperties`, a short list of fields, `anyOf` for unions.
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
import { geminiFormats, geminiSchemaKeywords } from './provider-schema-rules.js';
import { toRootObjectSchema } from './root-object-schema.js';
import { convertUnionBranches } from './union-branches.js';

/** A Gemini function declaration. `parameters` is omitted for a tool without arguments. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: JsonSchema;
}

const handled = new Set([
  'type',
  'enum',
  'const',
  'format',
  'properties',
  'required',
  'items',
  'prefixItems',
  'anyOf',
  'nullable',
]);
const describable = new Set([
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'uniqueItems',
  'examples',
  'contentMediaType',
  'contentEncoding',
]);

/**
 * Converts an MCP tool to a Gemini function declaration. What Gemini's schema cannot say is
 * moved into descriptions or dropped, and listed in `lossy`.
 */
export function toGeminiFunction(tool: ConvertibleTool): ConversionResult<GeminiFunctionDeclaration> {
  const normalised = normalizeSchema(tool.inputSchema);
  const lossy: LossyChange[] = [...normalised.lossy];
  const root = toRootObjectSchema(normalised.result, lossy);
  const result: GeminiFunctionDeclaration = { name: tool.name, description: toolDescription(tool) };
  if (Object.keys(propertiesOf(root)).length > 0) {
    const parameters = toGeminiSchema(root, '', lossy);
    result.parameters = parameters;
    for (const problem of checkToolSchema(parameters, 'gemini')) {
      if (problem.severity !== 'error') continue;
      lossy.push({ path: problem.path, kind: 'target-limit-exceeded', message: problem.message });
    }
  }
  for (const problem of checkToolName(tool.name, 'gemini')) {
    lossy.push({ path: problem.path, kind: 'target-limit-exceeded', message: problem.message });
  }
  return { result, lossy };
}

function report(lossy: LossyChange[], path: string, kind: string, message: string): void {
  lossy.push({ path: displayPointer(path), kind, message });
}

function toGeminiSchema(node: JsonSchema, path: string, lossy: LossyChange[]): JsonSchema {
  const union = convertUnionBranches(node, path, lossy, (branch, branchPath) =>
    toGeminiSchema(branch, branchPath, lossy),
  );
  if (union !== undefined) {
    const { branches, description, title } = union;
    // A union with null is Gemini's `nullable`.
    const nonNull = branches.filter((branch) => branch.type !== 'NULL');
    let result: JsonSchema;
    if (nonNull.length === 1 && nonNull.length < branches.length) result = { ...nonNull[0], nullable: true };
    else result = { anyOf: branches };
    if (typeof description === 'string') result.description = description;
    if (typeof title === 'string') result.title = title;
    return result;
  }

  let types = typeList(node);
  if (types.length === 0) {
    if (node.properties !== undefined || node.additionalProperties !== undefined) types = ['object'];
    else if (node.items !== undefined || node.prefixItems !== undefined) types = ['array'];
    else if (Array.isArray(node.enum) || node.const !== undefined) types = ['string'];
    else {
      report(
        lossy,
        path,
        'union-approximated',
        'An unconstrained schema (any JSON value) became a string, number or boolean: objects, arrays and null are no longer offered.',
      );
      const result: JsonSchema = { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }, { type: 'BOOLEAN' }] };
      if (typeof node.description === 'string') result.description = node.description;
      return result;
    }
  }
  const nullable = types.includes('null');
  const nonNull = types.filter((type) => type !== 'null');
  if (nonNull.length > 1) {
    const result: JsonSchema = {
      anyOf: nonNull.map((type) =>
        toGeminiSchema({ ...narrowToType(node, type), description: undefined }, path, lossy),
      ),
    };
    if (nullable) result.nullable = true;
    if (typeof node.description === 'string') result.description = node.description;
    return result;
  }
  const type = (nonNull[0] ?? 'null').toUpperCase();
  const result: JsonSchema = { type };
  if (nullable && type !== 'NULL') result.nullable = true;
  const notes: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined || handled.has(key)) continue;
    const keyPath = appendPointer(path, key);
    if (key === 'examples' && Array.isArray(value) && value.length > 0) {
      result.example = value[0];
      if (value.length > 1)
        notes.push(`Examples: ${value.map((example) => stableStringify(example)).join(', ')}.`);
      continue;
    }
    if (geminiSchemaKeywords.has(key)) {
      result[key] = value;
    } else if (key === 'additionalProperties') {
      // Open objects are reported below, with the object's properties in view.
      if (value === false) {
        report(
          lossy,
          keyPath,
          'removed-keyword',
          '`additionalProperties: false` is not supported by Gemini and was removed: extra keys are no longer forbidden.',
        );
      }
    } else if (describable.has(key)) {
      notes.push(`${key}: ${stableStringify(value)}.`);
      report(
        lossy,
        keyPath,
        'moved-to-description',
        `\`${key}\` is not supported by Gemini; it was moved into the description.`,
      );
    } else {
      report(lossy, keyPath, 'removed-keyword', `\`${key}\` is not supported by Gemini and was removed.`);
    }
  }
  if (typeof node.exclusiveMinimum === 'number' && result.minimum === undefined)
    result.minimum = node.exclusiveMinimum;
  if (typeof node.exclusiveMaximum === 'number' && result.maximum === undefined)
    result.maximum = node.exclusiveMaximum;

  if (typeof node.format === 'string') {
    if (geminiFormats[type]?.has(node.format)) result.format = node.format;
    else {
      notes.push(`Format: ${node.format}.`);
      report(
        lossy,
        appendPointer(path, 'format'),
        'moved-to-description',
        `Format \`${node.format}\` is not accepted by Gemini for ${type}; it was moved into the description.`,
      );
    }
  }
  const enumValues = Array.isArray(node.enum)
    ? node.enum
    : node.const !== undefined
      ? [node.const]
      : undefined;
  if (enumValues !== undefined) {
    const values = enumValues.filter((value) => value !== null);
    if (values.length < enumValues.length) result.nullable = true;
    if (!values.every((value) => typeof value === 'string')) {
      report(
        lossy,
        appendPointer(path, Array.isArray(node.enum) ? 'enum' : 'const'),
        'enum-stringified',
        `Gemini enums hold strings: ${stableStringify(values)} were written as strings; the model may answer with a string.`,
      );
    }
    result.enum = values.map((value) => (typeof value === 'string' ? value : stableStringify(value)));
    if (type === 'STRING') result.format = 'enum';
  }

  if (type === 'ARRAY') {
    if (Array.isArray(node.prefixItems)) {
      const prefix = node.prefixItems as JsonSchema[];
      const options: JsonSchema[] = [...prefix];
      if (isPlainObject(node.items)) options.push(node.items);
      const distinct = [...new Map(options.map((option) => [stableStringify(option), option])).values()];
      const itemSchema: JsonSchema =
        distinct.length === 1 ? (distinct[0] as JsonSchema) : { anyOf: distinct };
      result.items = toGeminiSchema(itemSchema, appendPointer(path, 'prefixItems'), lossy);
      if (node.items === false && result.maxItems === undefined) result.maxItems = prefix.length;
      report(
        lossy,
        appendPointer(path, 'prefixItems'),
        'tuple-approximated',
        `A tuple of ${prefix.length} positions became an array whose items may be any of the position schemas; the order is no longer enforced.`,
      );
    } else if (isPlainObject(node.items)) {
      result.items = toGeminiSchema(node.items, appendPointer(path, 'items'), lossy);
    } else {
      result.items = toGeminiSchema({}, appendPointer(path, 'items'), lossy);
    }
  }
  if (type === 'OBJECT') {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, property] of Object.entries(propertiesOf(node))) {
      properties[name] = toGeminiSchema(
        property,
        appendPointer(appendPointer(path, 'properties'), name),
        lossy,
      );
    }
    result.properties = properties;
    const required = requiredOf(node).filter((name) => name in properties);
    if (required.length > 0) result.required = required;
    if (isPlainObject(node.additionalProperties) || node.additionalProperties === true) {
      report(
        lossy,
        appendPointer(path, 'additionalProperties'),
        'removed-keyword',
        Object.keys(properties).length === 0
          ? 'A map of arbitrary keys cannot be described to Gemini; the object lists no keys.'
          : 'Additional properties cannot be described to Gemini; only the listed properties are offered.',
      );
    }
  }
  if (notes.length > 0) appendDescription(result, notes.join(' '));
  return result;
}

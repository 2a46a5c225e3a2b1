/**
 * The flat parameter map some agent frameworks register tools with (GAIA:
 * `{name: {type, required, description}}`), derived from a tool's input schema.
 */
import type { JsonSchema } from '../tool-definition.js';
import { propertiesOf, requiredOf, typeList } from './json-schema-utilities.js';
import { appendPointer, type ConversionResult, type LossyChange } from './lossy-change.js';
import { normalizeSchema } from './normalize-schema.js';
import { toRootObjectSchema } from './root-object-schema.js';

/** One parameter of a flat parameter map. */
export interface FlatParameter {
  /** JSON type (`string`, `number`, `integer`, `boolean`, `array`, `object`, `null`), or `any`. */
  type: string;
  required: boolean;
  /** The parameter's description (empty when the schema has none). */
  description: string;
  /** Every JSON type the parameter accepts, when more than one. */
  types?: string[];
  /** True when `null` is accepted. */
  nullable?: boolean;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  /** Element type of an array parameter. */
  items?: string;
  /** The full (normalised) schema of the parameter: nothing of the original is lost here. */
  schema: JsonSchema;
}

/** A tool's parameters by name. */
export type FlatParameters = Record<string, FlatParameter>;

function typesOf(schema: JsonSchema): string[] {
  const declared = typeList(schema);
  if (declared.length > 0) return declared;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches))
      return [...new Set(branches.flatMap((branch) => typesOf(branch as JsonSchema)))];
  }
  if (schema.const !== undefined) return [schema.const === null ? 'null' : typeof schema.const];
  if (Array.isArray(schema.enum)) {
    return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))];
  }
  if (schema.properties !== undefined) return ['object'];
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ['array'];
  return [];
}

/**
 * Converts a tool's input schema to a flat parameter map. Each entry also carries the parameter's
 * full normalised schema; what a single `type` cannot say (unions, a non-object root) is reported.
 */
export function toFlatParameters(schema: JsonSchema): ConversionResult<FlatParameters> {
  const normalised = normalizeSchema(schema);
  const lossy: LossyChange[] = [...normalised.lossy];
  const root = toRootObjectSchema(normalised.result, lossy);
  const required = new Set(requiredOf(root));
  const result: FlatParameters = {};
  for (const [name, property] of Object.entries(propertiesOf(root))) {
    const types = typesOf(property);
    const nonNull = types.filter((type) => type !== 'null');
    const parameter: FlatParameter = {
      type: nonNull[0] ?? (types.length === 0 ? 'any' : 'null'),
      required: required.has(name),
      description: typeof property.description === 'string' ? property.description : '',
      schema: property,
    };
    if (nonNull.length > 1) {
      parameter.types = types;
      lossy.push({
        path: appendPointer('/properties', name),
        kind: 'union-approximated',
        message: `\`${name}\` accepts ${nonNull.join(' or ')}; the flat \`type\` says only ${nonNull[0]} (see \`types\` and \`schema\`).`,
      });
    }
    if (types.includes('null')) parameter.nullable = true;
    if (Array.isArray(property.enum)) parameter.enum = property.enum;
    else if (property.const !== undefined) parameter.enum = [property.const];
    if (property.default !== undefined) parameter.default = property.default;
    if (typeof property.format === 'string') parameter.format = property.format;
    if (nonNull[0] === 'array' && typeof property.items === 'object' && property.items !== null) {
      const itemTypes = typesOf(property.items as JsonSchema);
      if (itemTypes.length > 0) parameter.items = itemTypes.join('|');
    }
    result[name] = parameter;
  }
  for (const keyword of [
    'patternProperties',
    'additionalProperties',
    'unevaluatedProperties',
    'propertyNames',
    'dependentRequired',
    'dependentSchemas',
    'minProperties',
    'maxProperties',
    'not',
    'if',
  ]) {
    const value = root[keyword];
    if (value === undefined || (keyword === 'additionalProperties' && value === false)) continue;
    lossy.push({
      path: `/${keyword}`,
      kind: 'removed-keyword',
      message: `\`${keyword}\` at the root cannot be expressed as named parameters and was dropped.`,
    });
  }
  return { result, lossy };
}

/**
 * Every provider wants a tool's parameters as one object schema at the root. This turns a
 * normalised schema into one, flattening a root-level union into a single object when needed.
 */
import type { JsonSchema } from '../tool-definition.js';
import {
  isPlainObject,
  propertiesOf,
  requiredOf,
  stableStringify,
  typeList,
} from './json-schema-utilities.js';
import type { LossyChange } from './lossy-change.js';
import { mergeSchemas } from './normalize-schema.js';

/**
 * Returns a root schema of `type: 'object'`. A root `anyOf`/`oneOf` of objects becomes one object
 * whose properties are the union of the branches' (required only when every branch requires it).
 */
export function toRootObjectSchema(schema: JsonSchema, lossy: LossyChange[]): JsonSchema {
  const types = typeList(schema);
  let result: JsonSchema = { ...schema };
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = result[keyword];
    if (!Array.isArray(branches)) continue;
    const objectBranches = branches.filter(
      (branch): branch is JsonSchema =>
        isPlainObject(branch) && (typeList(branch).length === 0 || typeList(branch).includes('object')),
    );
    delete result[keyword];
    const properties: Record<string, JsonSchema> = { ...propertiesOf(result) };
    let requiredInAll: string[] | undefined;
    for (const branch of objectBranches) {
      for (const [name, property] of Object.entries(propertiesOf(branch))) {
        const existing = properties[name];
        properties[name] = existing === undefined ? property : mergeLoosely(existing, property);
      }
      const required = requiredOf(branch);
      requiredInAll =
        requiredInAll === undefined ? required : requiredInAll.filter((name) => required.includes(name));
    }
    result.properties = properties;
    result.required = [...new Set([...requiredOf(result), ...(requiredInAll ?? [])])];
    lossy.push({
      path: `/${keyword}`,
      kind: 'union-flattened',
      message: `The root ${keyword} of ${branches.length} alternative(s) was flattened into one object with the union of their properties; which combinations are valid is no longer enforced${objectBranches.length < branches.length ? `, and ${branches.length - objectBranches.length} non-object alternative(s) were dropped` : ''}.`,
    });
  }
  if (types.length > 0 && !(types.length === 1 && types[0] === 'object')) {
    lossy.push({
      path: '/type',
      kind: 'type-widened',
      message: `The root type ${stableStringify(schema.type)} is not an object; tools take an object of arguments, so the root became \`type: "object"\`.`,
    });
  }
  result.type = 'object';
  if (!isPlainObject(result.properties)) result.properties = {};
  if (Array.isArray(result.required) && result.required.length === 0) delete result.required;
  result = Object.fromEntries(Object.entries(result));
  return result;
}

// Two branches describing one property differently: keep both as alternatives.
function mergeLoosely(left: JsonSchema, right: JsonSchema): JsonSchema {
  if (stableStringify(left) === stableStringify(right)) return left;
  const discarded: LossyChange[] = [];
  const merged = mergeSchemas(left, right, '', discarded);
  return discarded.length === 0 && typeList(left).join() === typeList(right).join()
    ? merged
    : { anyOf: [left, right] };
}

/**
 * Normalisation of an MCP `inputSchema` (draft-07 or 2020-12) into one self-contained form that the
 * target converters share: references inlined, `allOf` merged, draft-07 tuples rewritten as 2020-12
 * `prefixItems`. The normalised schema uses the 2020-12 vocabulary and carries no `$schema`.
 */
import type { JsonSchema } from '../tool-definition.js';
import { isPlainObject, jsonEqual, stableStringify, typeList } from './json-schema-utilities.js';
import { appendPointer, type ConversionResult, displayPointer, type LossyChange } from './lossy-change.js';

/** Options of {@link normalizeSchema}. */
export interface NormalizeSchemaOptions {
  /**
   * How many times one reference may be expanded inside its own expansion before the cycle is cut
   * (the cut is reported as a lossy change).
   * @default 2
   */
  maxRecursionDepth?: number;
  /**
   * How many references may be expanded inside one another along one path, recursive or not:
   * mutually recursive definitions otherwise multiply. @default 12
   */
  maxReferenceDepth?: number;
  /** How many references may be expanded in the whole schema. @default 1000 */
  maxInlinedReferences?: number;
}

// Dialect markers and containers of definitions: dropping them after inlining loses nothing.
const droppedSilently = new Set(['$schema', '$id', '$comment', '$defs', 'definitions']);
const unsupportedReferenceKeywords = new Set([
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
]);
const singleSchemaKeywords = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'contentSchema',
]);
const schemaMapKeywords = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const schemaListKeywords = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const lowerBounds = new Set([
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'minContains',
]);
const upperBounds = new Set([
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'maxContains',
]);
// Merging two unions multiplies their branches; past this the merge keeps the first union.
const maximumMergedBranches = 16;

/**
 * Inlines `$ref` (to `#`, `#/$defs/…`, `#/definitions/…` or any local JSON pointer) with cycle
 * detection, merges `allOf`, rewrites draft-07 tuples and `dependencies`, and reports every loss.
 */
export function normalizeSchema(
  schema: JsonSchema | boolean,
  options: NormalizeSchemaOptions = {},
): ConversionResult<JsonSchema> {
  const maxRecursionDepth = options.maxRecursionDepth ?? 2;
  const maxReferenceDepth = options.maxReferenceDepth ?? 12;
  const maxInlinedReferences = options.maxInlinedReferences ?? 1000;
  const lossy: LossyChange[] = [];
  const root = schema;
  let inlined = 0;
  let skipped = 0;

  // Stands in for a reference that is not expanded: keeps the target's type, accepts any content.
  const cut = (reference: string, path: string, kind: string, reason: string): JsonSchema => {
    const target = resolvePointer(root, reference);
    const resolved: JsonSchema = { description: `Recursive reference ${reference} (not expanded further).` };
    const type = isPlainObject(target) ? target.type : undefined;
    if (type !== undefined) resolved.type = structuredClone(type);
    lossy.push({
      path: displayPointer(path),
      kind,
      message: `${reason}: deeper levels accept any ${type === undefined ? 'value' : `value of type ${stableStringify(type)}`}.`,
    });
    return resolved;
  };

  const walk = (node: unknown, path: string, stack: readonly string[]): JsonSchema => {
    if (node === true || node === undefined) return {};
    if (node === false) return { not: {} };
    if (!isPlainObject(node)) {
      lossy.push({
        path: displayPointer(path),
        kind: 'removed-keyword',
        message: `${stableStringify(node)} is not a schema; replaced by an unconstrained schema.`,
      });
      return {};
    }
    if (typeof node.$ref !== 'string') return walkKeywords(node, path, stack);

    const { $ref: reference, ...siblings } = node as JsonSchema & { $ref: string };
    const expansions = stack.filter((entry) => entry === reference).length;
    let resolved: JsonSchema;
    if (expansions >= maxRecursionDepth) {
      resolved = cut(
        reference,
        path,
        'cycle-cut',
        `Recursive reference ${reference} was expanded ${maxRecursionDepth} time(s) and then cut`,
      );
    } else if (stack.length >= maxReferenceDepth) {
      resolved = cut(
        reference,
        path,
        'cycle-cut',
        `Reference ${reference} lies ${stack.length} references deep (limit ${maxReferenceDepth}) and was not expanded`,
      );
    } else if (inlined >= maxInlinedReferences) {
      skipped += 1;
      // One entry for all references past the budget: thousands of identical entries help nobody.
      const before = lossy.length;
      resolved = cut(
        reference,
        path,
        'expansion-limit',
        `Reference ${reference} and every later one were not expanded: the schema already inlined ${maxInlinedReferences} references`,
      );
      if (skipped > 1) lossy.splice(before, 1);
    } else {
      const target = resolvePointer(root, reference);
      if (target === undefined) {
        lossy.push({
          path: displayPointer(path),
          kind: 'unresolved-reference',
          message: `Reference ${reference} could not be resolved inside the schema; replaced by an unconstrained schema.`,
        });
        resolved = {};
      } else {
        inlined += 1;
        resolved = walk(target, path, [...stack, reference]);
      }
    }
    if (Object.keys(siblings).every((key) => droppedSilently.has(key))) return resolved;
    // 2020-12 allows keywords next to $ref; they apply together, like allOf.
    return mergeSchemas(walkKeywords(siblings, path, stack), resolved, path, lossy);
  };

  const walkKeywords = (node: JsonSchema, path: string, stack: readonly string[]): JsonSchema => {
    const output: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (droppedSilently.has(key)) continue;
      const keyPath = appendPointer(path, key);
      if (unsupportedReferenceKeywords.has(key)) {
        lossy.push({
          path: displayPointer(keyPath),
          kind: 'removed-keyword',
          message: `\`${key}\` is not supported by the converters and was removed.`,
        });
        continue;
      }
      if (schemaMapKeywords.has(key) && isPlainObject(value)) {
        const map: Record<string, JsonSchema> = {};
        for (const [name, subschema] of Object.entries(value)) {
          map[name] = walk(subschema, appendPointer(keyPath, name), stack);
        }
        output[key] = map;
      } else if (schemaListKeywords.has(key) && Array.isArray(value)) {
        output[key] = value.map((subschema, index) => walk(subschema, appendPointer(keyPath, index), stack));
      } else if (singleSchemaKeywords.has(key)) {
        output[key] = typeof value === 'boolean' ? value : walk(value, keyPath, stack);
      } else if (key === 'items') {
        if (Array.isArray(value)) {
          // draft-07 tuple: items[] + additionalItems → prefixItems + items
          output.prefixItems = value.map((subschema, index) =>
            walk(subschema, appendPointer(keyPath, index), stack),
          );
          if (node.additionalItems !== undefined) {
            output.items =
              typeof node.additionalItems === 'boolean'
                ? node.additionalItems
                : walk(node.additionalItems, appendPointer(path, 'additionalItems'), stack);
          }
        } else {
          output.items = typeof value === 'boolean' ? value : walk(value, keyPath, stack);
        }
      } else if (key === 'additionalItems') {
        // Handled with `items`; alone it has no effect.
      } else if (key === 'dependencies' && isPlainObject(value)) {
        for (const [name, dependency] of Object.entries(value)) {
          if (Array.isArray(dependency)) {
            output.dependentRequired ??= {};
            (output.dependentRequired as Record<string, unknown>)[name] = structuredClone(dependency);
          } else {
            output.dependentSchemas ??= {};
            (output.dependentSchemas as Record<string, unknown>)[name] = walk(
              dependency,
              appendPointer(keyPath, name),
              stack,
            );
          }
        }
      } else if (key === 'nullable') {
        // OpenAPI 3.0 style; expressed below as a `null` type.
      } else {
        output[key] = structuredClone(value);
      }
    }
    if (node.nullable === true) {
      const types = typeList(output);
      if (types.length > 0 && !types.includes('null')) output.type = [...types, 'null'];
    }
    if (!Array.isArray(output.allOf)) return output;
    const { allOf, ...rest } = output;
    let merged: JsonSchema = rest;
    (allOf as JsonSchema[]).forEach((member, index) => {
      merged = mergeSchemas(merged, member, appendPointer(appendPointer(path, 'allOf'), index), lossy);
    });
    return merged;
  };

  const result = walk(schema, '', []);
  const limitEntry = lossy.find((change) => change.kind === 'expansion-limit');
  if (limitEntry !== undefined && skipped > 1) {
    limitEntry.message += ` In all, ${skipped} references were left unexpanded.`;
  }
  return { result, lossy };
}

/** Resolves a local reference (`#`, `#/a/b`) against the root schema; `undefined` when it cannot. */
export function resolvePointer(root: unknown, reference: string): unknown {
  if (!reference.startsWith('#')) return undefined;
  const fragment = decodeURIComponent(reference.slice(1));
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined;
  let current: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isPlainObject(current)) current = current[segment];
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

function intersectTypes(left: string[], right: string[]): string[] {
  const result: string[] = [];
  for (const type of left) {
    if (right.includes(type)) result.push(type);
    else if (type === 'integer' && right.includes('number')) result.push('integer');
    else if (type === 'number' && right.includes('integer')) result.push('integer');
  }
  return [...new Set(result)];
}

/**
 * Merges two schemas that must both hold (as `allOf` members do): properties and required lists
 * are united, types and enums intersected, bounds tightened. Conflicts are reported as lossy.
 */
export function mergeSchemas(
  left: JsonSchema,
  right: JsonSchema,
  path: string,
  lossy: LossyChange[],
): JsonSchema {
  const result: JsonSchema = { ...left };
  const conflict = (key: string, detail: string): void => {
    lossy.push({ path: displayPointer(appendPointer(path, key)), kind: 'merge-conflict', message: detail });
  };
  for (const [key, value] of Object.entries(right)) {
    if (!(key in result)) {
      result[key] = value;
      continue;
    }
    const existing = result[key];
    if (jsonEqual(existing, value)) continue;
    if (key === 'properties' && isPlainObject(existing) && isPlainObject(value)) {
      const properties: Record<string, unknown> = { ...existing };
      for (const [name, subschema] of Object.entries(value)) {
        const current = properties[name];
        properties[name] =
          isPlainObject(current) && isPlainObject(subschema)
            ? mergeSchemas(current, subschema, appendPointer(appendPointer(path, 'properties'), name), lossy)
            : subschema;
      }
      result.properties = properties;
    } else if (key === 'required' && Array.isArray(existing) && Array.isArray(value)) {
      result.required = [...new Set([...existing, ...value])];
    } else if (key === 'type') {
      const types = intersectTypes(typeList({ type: existing }), typeList({ type: value }));
      if (types.length === 0) {
        conflict(
          key,
          `allOf members require incompatible types ${stableStringify(existing)} and ${stableStringify(value)}; kept ${stableStringify(existing)}.`,
        );
      } else {
        result.type = types.length === 1 ? types[0] : types;
      }
    } else if (key === 'enum' && Array.isArray(existing) && Array.isArray(value)) {
      const common = existing.filter((entry) => value.some((other) => jsonEqual(entry, other)));
      if (common.length === 0) {
        conflict(key, 'allOf members allow no common enum value; kept the first enum.');
      } else {
        result.enum = common;
      }
    } else if (lowerBounds.has(key) && typeof existing === 'number' && typeof value === 'number') {
      result[key] = Math.max(existing, value);
    } else if (upperBounds.has(key) && typeof existing === 'number' && typeof value === 'number') {
      result[key] = Math.min(existing, value);
    } else if (key === 'description' && typeof existing === 'string' && typeof value === 'string') {
      result.description = `${existing}\n${value}`;
    } else if (key === 'title' || key === 'examples' || key === 'default') {
      // Annotations: the outer (first) one describes the merged schema best.
      if (key === 'default') conflict(key, `Two defaults; kept ${stableStringify(existing)}.`);
    } else if ((key === 'items' || key === 'not') && isPlainObject(existing) && isPlainObject(value)) {
      result[key] = mergeSchemas(existing, value, appendPointer(path, key), lossy);
    } else if (key === 'additionalProperties') {
      if (existing === false || value === false) result.additionalProperties = false;
      else if (existing === true) result.additionalProperties = value;
      else if (isPlainObject(existing) && isPlainObject(value)) {
        result.additionalProperties = mergeSchemas(existing, value, appendPointer(path, key), lossy);
      }
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(existing) && Array.isArray(value)) {
      if (existing.length * value.length <= maximumMergedBranches) {
        const branches: JsonSchema[] = [];
        existing.forEach((first, firstIndex) => {
          value.forEach((second) => {
            branches.push(
              mergeSchemas(first, second, appendPointer(appendPointer(path, key), firstIndex), lossy),
            );
          });
        });
        result[key] = branches;
      } else {
        conflict(key, `Two ${key} unions too large to combine; kept the first.`);
      }
    } else {
      conflict(
        key,
        `allOf members disagree on \`${key}\` (${stableStringify(existing)} vs ${stableStringify(value)}); kept the first.`,
      );
    }
  }
  return result;
}

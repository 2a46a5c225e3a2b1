import type { JsonSchema } from '../tool-definition.js';
import { appendPointer, displayPointer, type LossyChange } from './lossy-change.js';
import { mergeSchemas } from './normalize-schema.js';

/** A schema's union, converted branch by branch, with the keywords that describe the whole. */
export interface ConvertedUnion {
  branches: JsonSchema[];
  description?: unknown;
  title?: unknown;
}

/**
 * Converts the branches of a schema's `anyOf`/`oneOf` for targets that only know `anyOf` (OpenAI
 * strict, Gemini). A `oneOf` is approximated as `anyOf` (reported); the schema's other keywords
 * are merged into every branch, since such targets do not allow keywords beside a union. Each
 * branch is merged, then converted, in order, so lossy changes read in schema order. Undefined
 * when the schema has no union.
 */
export function convertUnionBranches(
  node: JsonSchema,
  path: string,
  lossy: LossyChange[],
  convert: (branch: JsonSchema, branchPath: string) => JsonSchema,
): ConvertedUnion | undefined {
  let union = node.anyOf;
  let unionKeyword = 'anyOf';
  if (Array.isArray(node.oneOf)) {
    union = Array.isArray(union) ? [...union, ...node.oneOf] : node.oneOf;
    unionKeyword = 'oneOf';
    lossy.push({
      path: displayPointer(appendPointer(path, 'oneOf')),
      kind: 'union-approximated',
      message: '`oneOf` became `anyOf`: that exactly one alternative matches is not enforced.',
    });
  }
  if (!Array.isArray(union)) return undefined;
  const { anyOf: _anyOf, oneOf: _oneOf, description, title, ...siblings } = node;
  const hasSiblings = Object.keys(siblings).length > 0;
  const branches = union.map((branch, index) => {
    const branchPath = appendPointer(appendPointer(path, unionKeyword), index);
    const merged = hasSiblings
      ? mergeSchemas(siblings, branch as JsonSchema, branchPath, lossy)
      : (branch as JsonSchema);
    return convert(merged, branchPath);
  });
  return { branches, description, title };
}

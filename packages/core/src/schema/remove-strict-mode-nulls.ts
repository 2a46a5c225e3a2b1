/**
 * OpenAI strict mode makes optional properties required and nullable, so a model answers
 * `{"tail": null}` where it means "no tail". The MCP server's own schema usually rejects that null;
 * this removes such nulls so the arguments match the tool's original schema again.
 */
import type { JsonSchema } from '../tool-definition.js';
import { isPlainObject, propertiesOf, requiredOf, typeList } from './json-schema-utilities.js';
import { normalizeSchema } from './normalize-schema.js';

function acceptsNull(schema: JsonSchema): boolean {
  if (typeList(schema).includes('null')) return true;
  if (schema.const === null) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.some((branch) => isPlainObject(branch) && acceptsNull(branch)))
      return true;
  }
  return Object.keys(schema).length === 0;
}

/**
 * Returns a copy of `args` without the nulls that strict mode forced on optional properties: a
 * property that is optional in `inputSchema` (the tool's original schema) and does not itself
 * accept null is dropped when null. Walks nested objects and arrays.
 */
export function removeStrictModeNulls(
  inputSchema: JsonSchema,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const schema = normalizeSchema(inputSchema).result;
  return clean(schema, args) as Record<string, unknown>;
}

function clean(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as JsonSchema[]) : [];
    return value.map((item, index) => {
      const itemSchema = prefix[index] ?? (isPlainObject(schema.items) ? schema.items : undefined);
      return itemSchema === undefined ? item : clean(itemSchema, item);
    });
  }
  if (!isPlainObject(value)) return value;
  const properties = propertiesOf(schema);
  const required = new Set(requiredOf(schema));
  const result: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (property === undefined) {
      result[name] = item;
      continue;
    }
    if (item === null && !required.has(name) && !acceptsNull(property)) continue;
    result[name] = clean(property, item);
  }
  return result;
}

/**
 * The arguments a `defineTool` tool runs with, after the validator of its input schema. A zod
 * input schema parses them again (defaults, coercions, transforms, unknown keys dropped). For an
 * object of plain strings, numbers and booleans (optional or nullable; no checks, formats or
 * coercion) that parse returns a copy of its input once each value has its type: so for such a
 * schema the types are checked here, key by key, and the arguments copied. On a 2026-07-28 echo
 * call zod's parse was 3 µs of the server's 60 µs request path (the server bench, with it left out
 * and put back in paired rounds). Anything else (another schema, a key the schema does not name, a
 * value of another type) goes through zod, which answers as before: the check does not rely on
 * the validator, which a server may replace. `validated-arguments.test.ts` holds the copy to zod's
 * own answer.
 */

/** One key of a plain object schema: its value's type, and whether it may be absent or null. */
interface PlainField {
  type: 'string' | 'number' | 'boolean';
  optional: boolean;
  nullable: boolean;
}

/** What this file needs of a `defineTool` tool (structurally: `define-tool.ts` imports this file). */
interface ParsingTool {
  /** zod's parse of the tool's arguments, when its input is a zod schema. */
  parse?: (args: unknown) => unknown;
}

/** The fields of tools whose zod input is a plain object. */
const plainInputs = new WeakMap<ParsingTool, ReadonlyMap<string, PlainField>>();

interface ZodDef {
  type?: string;
  checks?: unknown[];
  format?: unknown;
  coerce?: unknown;
  innerType?: { _zod?: { def?: ZodDef } };
  shape?: Record<string, { _zod?: { def?: ZodDef } }>;
  catchall?: unknown;
}

/** A plain field of a zod schema's def (a wrapped leaf without checks); undefined otherwise. */
function plainField(def: ZodDef | undefined, optional = false, nullable = false): PlainField | undefined {
  if (def === undefined) return undefined;
  if (def.type === 'optional') return plainField(def.innerType?._zod?.def, true, nullable);
  if (def.type === 'nullable') return plainField(def.innerType?._zod?.def, optional, true);
  if (def.type !== 'string' && def.type !== 'number' && def.type !== 'boolean') return undefined;
  if ((def.checks !== undefined && def.checks.length > 0) || def.format !== undefined || def.coerce)
    return undefined;
  return { type: def.type, optional, nullable };
}

/** The fields of a zod object schema made only of plain fields (no catchall, no checks of its own). */
function plainObjectFields(schema: unknown): ReadonlyMap<string, PlainField> | undefined {
  const def = (schema as { _zod?: { def?: ZodDef } })._zod?.def;
  if (def?.type !== 'object' || def.catchall !== undefined) return undefined;
  if (def.checks !== undefined && def.checks.length > 0) return undefined;
  const fields = new Map<string, PlainField>();
  const shape = def.shape ?? {};
  for (const key of Object.keys(shape)) {
    const field = plainField(shape[key]?._zod?.def);
    if (field === undefined) return undefined;
    fields.set(key, field);
  }
  return fields;
}

/** Notes, once per tool, whether its zod input is a plain object. */
export function rememberInputSchema(tool: ParsingTool, schema: unknown): void {
  const fields = plainObjectFields(schema);
  if (fields !== undefined) plainInputs.set(tool, fields);
}

/** Whether a value fits a plain field (zod's number takes finite numbers only). */
function fits(value: unknown, field: PlainField): boolean {
  if (value === null) return field.nullable;
  if (field.type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === field.type;
}

/**
 * What zod's parse gives for `args` under plain `fields`: a new object with the present fields in
 * the schema's order; undefined where zod must answer (a key it does not name, a value of another
 * type, a required field absent).
 */
function plainCopy(
  args: Record<string, unknown>,
  fields: ReadonlyMap<string, PlainField>,
): Record<string, unknown> | undefined {
  const copy: Record<string, unknown> = {};
  let copied = 0;
  for (const [key, field] of fields) {
    if (!Object.hasOwn(args, key)) {
      if (!field.optional) return undefined;
      continue;
    }
    const value = args[key];
    if (!fits(value, field)) return undefined;
    copy[key] = value;
    copied++;
  }
  let given = 0;
  for (const _key in args) given++;
  return given === copied ? copy : undefined;
}

/** The arguments `tool` runs with: zod's parse of `args`, or the same as a copy where that is all it would give. */
export function validatedArguments(
  tool: ParsingTool,
  args: Record<string, unknown>,
): Record<string, unknown> {
  if (tool.parse === undefined) return args;
  const fields = plainInputs.get(tool);
  const copy = fields === undefined ? undefined : plainCopy(args, fields);
  return copy ?? (tool.parse(args) as Record<string, unknown>);
}

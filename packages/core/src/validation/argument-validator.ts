/**
 * Validation of tool-call arguments against the tool's input schema, with ajv validators compiled
 * once per tool and cached. Failures explain themselves well enough for a model to correct the call.
 */
import { createRequire } from 'node:module';
import type { Ajv, Options as AjvOptions, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { isPlainObject, stableStringify, truncateText } from '../schema/json-schema-utilities.js';
import { SwitchboardError } from '../switchboard-error.js';
import type { JsonSchema } from '../tool-definition.js';
import { withoutDefaultedRequired } from './defaulted-required.js';
import { describeValue, toValidationProblems, type ValidationProblem } from './validation-problem.js';

interface AjvModules {
  Ajv: typeof Ajv;
  Ajv2019: typeof Ajv2019;
  Ajv2020: typeof Ajv2020;
  addFormats: typeof addFormatsModule.default;
}

let ajvModules: AjvModules | undefined;

/**
 * ajv and ajv-formats, loaded at the first schema compiled rather than when core is imported: they
 * are ~100 CommonJS files, and most processes that import core (a CLI listing tools, a gateway
 * before its first call) compile no schema for a while, or never. `require` keeps `validate`
 * synchronous; both packages are CommonJS, so this loads the very modules an `import` would.
 */
function loadAjv(): AjvModules {
  if (ajvModules === undefined) {
    const require = createRequire(import.meta.url);
    ajvModules = {
      Ajv: (require('ajv') as { Ajv: typeof Ajv }).Ajv,
      Ajv2019: (require('ajv/dist/2019.js') as { Ajv2019: typeof Ajv2019 }).Ajv2019,
      Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
      // CommonJS: `module.exports` is the plugin function itself.
      addFormats: require('ajv-formats') as typeof addFormatsModule.default,
    };
  }
  return ajvModules;
}

/** The JSON Schema dialects the validator compiles. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/** What the validator needs of a tool (`McpToolDefinition` and `RegisteredTool` both qualify). */
export interface ValidatableTool {
  name: string;
  inputSchema: JsonSchema;
}

/** Options of {@link createArgumentValidator}. */
export interface ArgumentValidatorOptions {
  /** Check `format` keywords (email, uri, date-time, uuid...). @default true */
  formats?: boolean;
  /** Compiled validators kept for schemas shared by tool objects not seen before (LRU). @default 1000 */
  maxCachedSchemas?: number;
  /** Longest expected-schema text in an error message. @default 2000 */
  maxSchemaCharacters?: number;
  /** Longest arguments text in an error message. @default 1000 */
  maxArgumentsCharacters?: number;
  /** Most problems listed in an error message (the error's context has all). @default 20 */
  maxProblems?: number;
}

/** Outcome of {@link ArgumentValidator.validate}. */
export type ArgumentValidationResult =
  | { valid: true; problems: [] }
  | { valid: false; problems: ValidationProblem[]; error: SwitchboardError };

/** Counters of the validator's cache. */
export interface ArgumentValidatorStats {
  /** Schemas compiled (including ones that failed to compile). */
  compilations: number;
  /** Validations served by an already compiled validator. */
  cacheHits: number;
  /** Validations that had to compile. */
  cacheMisses: number;
}

/** Validates tool-call arguments; build one with {@link createArgumentValidator}. */
export interface ArgumentValidator {
  /** Checks `args` against the tool's input schema. `undefined` counts as `{}` (MCP allows omitting arguments). */
  validate(tool: ValidatableTool, args: unknown): ArgumentValidationResult;
  /** Like `validate`, but throws the `VALIDATION_FAILED` (or `INVALID_SCHEMA`) error. */
  assertValid(tool: ValidatableTool, args: unknown): asserts args is Record<string, unknown> | undefined;
  /** The schema dialect used for a schema: its `$schema`, else draft-07 forms, else 2020-12 (MCP's default). */
  dialectOf(schema: JsonSchema): SchemaDialect;
  stats(): ArgumentValidatorStats;
  /** Drops every compiled validator. */
  clear(): void;
}

type Compiled = { validate: ValidateFunction; schema: JsonSchema } | { error: SwitchboardError };

interface ToolEntry {
  schema: JsonSchema;
  compiled: Compiled;
}

/** Chooses the dialect of a schema (see {@link ArgumentValidator.dialectOf}). */
export function schemaDialect(schema: JsonSchema): SchemaDialect {
  const declared = schema.$schema;
  if (typeof declared === 'string') {
    if (declared.includes('2020-12')) return '2020-12';
    if (declared.includes('2019-09')) return '2019-09';
    return 'draft-07';
  }
  return usesDraft07Forms(schema) ? 'draft-07' : '2020-12';
}

// Keywords whose meaning 2020-12 changed or dropped: a schema using them was written for draft-07.
function usesDraft07Forms(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(usesDraft07Forms);
  if (!isPlainObject(node)) return false;
  if (Array.isArray(node.items) || node.additionalItems !== undefined || node.dependencies !== undefined)
    return true;
  return Object.values(node).some(usesDraft07Forms);
}

/** Creates an argument validator with its own compiled-validator cache. */
export function createArgumentValidator(options: ArgumentValidatorOptions = {}): ArgumentValidator {
  const formats = options.formats ?? true;
  const maxCachedSchemas = options.maxCachedSchemas ?? 1000;
  const maxSchemaCharacters = options.maxSchemaCharacters ?? 2000;
  const maxArgumentsCharacters = options.maxArgumentsCharacters ?? 1000;
  const maxProblems = options.maxProblems ?? 20;
  let byTool = new WeakMap<object, ToolEntry>();
  const bySchema = new Map<string, Compiled>();
  const instances = new Map<SchemaDialect, Ajv>();
  const stats: ArgumentValidatorStats = { compilations: 0, cacheHits: 0, cacheMisses: 0 };

  const ajvFor = (dialect: SchemaDialect): Ajv => {
    let ajv = instances.get(dialect);
    if (ajv !== undefined) return ajv;
    const { Ajv, Ajv2019, Ajv2020, addFormats } = loadAjv();
    // Tool schemas in the wild carry unknown keywords and formats: strict mode would refuse them.
    const ajvOptions: AjvOptions = {
      allErrors: true,
      strict: false,
      verbose: true,
      logger: false,
      validateFormats: formats,
    };
    ajv =
      dialect === '2020-12'
        ? new Ajv2020(ajvOptions)
        : dialect === '2019-09'
          ? new Ajv2019(ajvOptions)
          : new Ajv(ajvOptions);
    if (formats) addFormats(ajv);
    instances.set(dialect, ajv);
    return ajv;
  };

  const compile = (tool: ValidatableTool): Compiled => {
    stats.compilations += 1;
    const dialect = schemaDialect(tool.inputSchema);
    // A copy: ajv keys its own cache by object, and `$id`s must not clash between tools. A required
    // property with a default is satisfied by it: the server fills it in (defaulted-required.ts).
    const schema = structuredClone(withoutDefaultedRequired(tool.inputSchema));
    delete schema.$id;
    if (typeof schema.$schema === 'string' && !/draft-07|2019-09|2020-12/.test(schema.$schema))
      delete schema.$schema;
    try {
      return { validate: ajvFor(dialect).compile(schema), schema };
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return {
        error: new SwitchboardError({
          code: 'INVALID_SCHEMA',
          message: `Tool \`${tool.name}\` has an input schema that cannot be compiled as JSON Schema ${dialect}: ${reason}. Its arguments cannot be checked; the tool's server has to fix the schema.`,
          context: { tool: tool.name, dialect, reason },
          cause,
        }),
      };
    }
  };

  const compiledFor = (tool: ValidatableTool): Compiled => {
    const entry = byTool.get(tool);
    if (entry !== undefined && entry.schema === tool.inputSchema) {
      stats.cacheHits += 1;
      return entry.compiled;
    }
    // A new tool object, or its schema object was replaced: look the schema up by content.
    const fingerprint = `${schemaDialect(tool.inputSchema)}\u0000${stableStringify(tool.inputSchema)}`;
    let compiled = bySchema.get(fingerprint);
    if (compiled === undefined) {
      stats.cacheMisses += 1;
      compiled = compile(tool);
      if (bySchema.size >= maxCachedSchemas) {
        const [oldestKey, oldest] = bySchema.entries().next().value as [string, Compiled];
        bySchema.delete(oldestKey);
        if ('schema' in oldest) {
          for (const ajv of instances.values()) ajv.removeSchema(oldest.schema);
        }
      }
    } else {
      stats.cacheHits += 1;
      bySchema.delete(fingerprint);
    }
    // Re-inserted last: the map's order is its recency.
    bySchema.set(fingerprint, compiled);
    byTool.set(tool, { schema: tool.inputSchema, compiled });
    return compiled;
  };

  const failure = (tool: ValidatableTool, args: unknown, problems: ValidationProblem[]): SwitchboardError => {
    const listed = problems.slice(0, maxProblems).map((problem) => `- ${problem.message}`);
    if (problems.length > maxProblems) listed.push(`- …and ${problems.length - maxProblems} more`);
    const { $schema: _dialect, ...schema } = tool.inputSchema;
    const message = [
      `Invalid arguments for tool \`${tool.name}\` (${problems.length} problem${problems.length === 1 ? '' : 's'}):`,
      ...listed,
      `Expected input schema: ${truncateText(JSON.stringify(schema), maxSchemaCharacters)}`,
      `Arguments given: ${truncateText(JSON.stringify(args) ?? 'undefined', maxArgumentsCharacters)}`,
      `Correct the arguments to match the schema and call \`${tool.name}\` again.`,
    ].join('\n');
    return new SwitchboardError({
      code: 'VALIDATION_FAILED',
      message,
      context: { tool: tool.name, problems },
    });
  };

  const validate = (tool: ValidatableTool, args: unknown): ArgumentValidationResult => {
    const compiled = compiledFor(tool);
    if ('error' in compiled) return { valid: false, problems: [], error: compiled.error };
    const value = args === undefined ? {} : args;
    if (!isPlainObject(value)) {
      const problems: ValidationProblem[] = [
        {
          path: '',
          pointer: '',
          keyword: 'type',
          message: `the arguments must be an object of named arguments, got ${describeValue(value)}`,
          params: { type: 'object' },
        },
      ];
      return { valid: false, problems, error: failure(tool, args, problems) };
    }
    if (compiled.validate(value)) return { valid: true, problems: [] };
    const problems = toValidationProblems(compiled.validate.errors ?? []);
    return { valid: false, problems, error: failure(tool, args, problems) };
  };

  return {
    validate,
    assertValid(tool, args) {
      const result = validate(tool, args);
      if (!result.valid) throw result.error;
    },
    dialectOf: schemaDialect,
    stats: () => ({ ...stats }),
    clear() {
      bySchema.clear();
      for (const ajv of instances.values()) ajv.removeSchema();
      // WeakMap entries cannot be enumerated: a fresh map forgets them all.
      byTool = new WeakMap();
    },
  };
}

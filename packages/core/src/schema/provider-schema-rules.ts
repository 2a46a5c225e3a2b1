/**
 * What each provider accepts in a tool definition, as documented: OpenAI's strict-mode subset of
 * JSON Schema (Structured Outputs "Supported schemas"), Gemini's OpenAPI 3.0 subset (the
 * `Schema` object of function declarations), and tool-name rules. Shared by converters and checkers.
 */

/** The providers a tool schema can be checked against. */
export type SchemaTarget = 'openai' | 'openai-strict' | 'anthropic' | 'gemini';

/** Size limits of OpenAI strict mode. */
export interface OpenAIStrictLimits {
  /** Object properties in the whole schema. @default 5000 */
  maxProperties: number;
  /** Levels of object nesting (the root object is level 1). @default 10 */
  maxNestingDepth: number;
  /** Total length of property names, definition names, enum and const values. @default 120000 */
  maxTotalStringLength: number;
  /** Enum values in the whole schema. @default 1000 */
  maxEnumValues: number;
  /** Total length of one string enum's values once it has more than `largeEnumThreshold` values. @default 15000 */
  maxLargeEnumStringLength: number;
  /** Size above which a string enum counts as large. @default 250 */
  largeEnumThreshold: number;
}

/**
 * OpenAI's currently documented strict-mode limits. (Earlier documentation said 100 properties and
 * 5 levels; pass those as `limits` to check against older models or gateways.)
 */
export const openAIStrictLimits: Readonly<OpenAIStrictLimits> = Object.freeze({
  maxProperties: 5000,
  maxNestingDepth: 10,
  maxTotalStringLength: 120_000,
  maxEnumValues: 1000,
  maxLargeEnumStringLength: 15_000,
  largeEnumThreshold: 250,
});

/** Keywords OpenAI strict mode accepts on any schema. */
export const openAIStrictCommonKeywords: ReadonlySet<string> = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
]);

/** Keywords OpenAI strict mode accepts per type. */
export const openAIStrictTypeKeywords: Readonly<Record<string, ReadonlySet<string>>> = Object.freeze({
  string: new Set(['pattern', 'format']),
  number: new Set(['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum']),
  integer: new Set(['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum']),
  array: new Set(['items', 'minItems', 'maxItems']),
  object: new Set(['properties', 'required', 'additionalProperties']),
  boolean: new Set<string>(),
  null: new Set<string>(),
});

/** String formats OpenAI strict mode supports. */
export const openAIStrictFormats: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Fields of Gemini's `Schema` object (function declaration parameters). */
export const geminiSchemaKeywords: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** Gemini's type names. */
export const geminiTypes: ReadonlySet<string> = new Set([
  'STRING',
  'NUMBER',
  'INTEGER',
  'BOOLEAN',
  'ARRAY',
  'OBJECT',
  'NULL',
]);

/** Formats Gemini (Developer API) accepts per type; others make the request fail. */
export const geminiFormats: Readonly<Record<string, ReadonlySet<string>>> = Object.freeze({
  STRING: new Set(['enum', 'date-time']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
});

/** Tool-name rules per provider. */
export const toolNamePatterns: Readonly<Record<SchemaTarget, { pattern: RegExp; rule: string }>> =
  Object.freeze({
    openai: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: 'letters, digits, `_` and `-`, 1 to 64 characters' },
    'openai-strict': {
      pattern: /^[a-zA-Z0-9_-]{1,64}$/,
      rule: 'letters, digits, `_` and `-`, 1 to 64 characters',
    },
    anthropic: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: 'letters, digits, `_` and `-`, 1 to 64 characters' },
    gemini: {
      pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
      rule: 'starts with a letter or `_`, then letters, digits, `_`, `.`, `:` and `-`, at most 64 characters',
    },
  });

/** Gemini (Vertex AI) parameter-name rule: a letter or `_` first, then letters, digits and `_`. */
export const geminiParameterNamePattern = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

/**
 * Checkers of provider rules: does a (converted) tool schema, and a tool name, satisfy what OpenAI
 * strict mode, OpenAI, Anthropic or Gemini accept? Used by tests on every converted tool and by the
 * CLI's `doctor`.
 */
import type { JsonSchema } from '../tool-definition.js';
import {
  isPlainObject,
  propertiesOf,
  requiredOf,
  stableStringify,
  typeList,
} from './json-schema-utilities.js';
import { appendPointer, displayPointer } from './lossy-change.js';
import {
  geminiFormats,
  geminiParameterNamePattern,
  geminiSchemaKeywords,
  geminiTypes,
  type OpenAIStrictLimits,
  openAIStrictCommonKeywords,
  openAIStrictFormats,
  openAIStrictLimits,
  openAIStrictTypeKeywords,
  type SchemaTarget,
  toolNamePatterns,
} from './provider-schema-rules.js';

/** One way a schema or name breaks a provider's rules. */
export interface SchemaProblem {
  /** JSON pointer to the offending schema (`/` for the root). */
  path: string;
  /** Short rule identifier, e.g. `unsupported-keyword`, `not-required`, `max-depth`. */
  rule: string;
  /** `error`: the provider rejects it; `warning`: accepted but likely to misbehave. */
  severity: 'error' | 'warning';
  message: string;
}

/** Options of {@link checkToolSchema}. */
export interface CheckToolSchemaOptions {
  /** Overrides of OpenAI strict-mode size limits. @default openAIStrictLimits */
  limits?: Partial<OpenAIStrictLimits>;
}

/**
 * Checks a tool's parameter schema against a provider's documented rules; an empty list means the
 * provider should accept it. Pass converted schemas (`toOpenAITool(...).result.function.parameters`,
 * `toGeminiFunction(...).result.parameters`) to verify a conversion, or an MCP `inputSchema` to see
 * what would have to change.
 */
export function checkToolSchema(
  schema: JsonSchema,
  target: SchemaTarget,
  options: CheckToolSchemaOptions = {},
): SchemaProblem[] {
  switch (target) {
    case 'openai-strict':
      return checkOpenAIStrict(schema, { ...openAIStrictLimits, ...options.limits });
    case 'gemini':
      return checkGemini(schema);
    case 'openai':
    case 'anthropic':
      return checkRootObject(schema, target);
  }
}

/** Checks a tool name against a provider's naming rule. */
export function checkToolName(name: string, target: SchemaTarget): SchemaProblem[] {
  const { pattern, rule } = toolNamePatterns[target];
  if (pattern.test(name)) return [];
  return [
    {
      path: '/name',
      rule: 'invalid-name',
      severity: 'error',
      message: `Tool name ${JSON.stringify(name)} breaks the ${target} naming rule (${rule}); register the tool under a sanitised public name (createToolName does this).`,
    },
  ];
}

function problem(
  path: string,
  rule: string,
  message: string,
  severity: 'error' | 'warning' = 'error',
): SchemaProblem {
  return { path: displayPointer(path), rule, severity, message };
}

/** `required` naming a property the object does not have: refused by OpenAI strict mode and Gemini alike. */
function unknownRequired(
  required: readonly string[],
  properties: Record<string, unknown>,
  path: string,
): SchemaProblem[] {
  return required
    .filter((name) => !(name in properties))
    .map((name) =>
      problem(
        appendPointer(path, 'required'),
        'unknown-required',
        `\`required\` names \`${name}\`, which is not a property.`,
      ),
    );
}

function checkRootObject(schema: JsonSchema, target: SchemaTarget): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  if (schema.type !== 'object') {
    problems.push(
      problem(
        '/type',
        'root-not-object',
        `The root of a ${target} tool schema must have \`type: "object"\`.`,
      ),
    );
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    if (schema[keyword] !== undefined) {
      problems.push(
        problem(
          appendPointer('', keyword),
          'root-union',
          `\`${keyword}\` at the root of a ${target} tool schema is rejected; put the alternatives inside a property.`,
        ),
      );
    }
  }
  return problems;
}

function checkOpenAIStrict(schema: JsonSchema, limits: OpenAIStrictLimits): SchemaProblem[] {
  const problems = checkRootObject(schema, 'openai-strict');
  let propertyCount = 0;
  let stringLength = 0;
  let enumValues = 0;
  let deepest = { depth: 0, path: '' };

  const visit = (node: unknown, path: string, objectDepth: number): void => {
    if (!isPlainObject(node)) {
      problems.push(problem(path, 'not-a-schema', `Expected a schema object, got ${stableStringify(node)}.`));
      return;
    }
    const types = typeList(node);
    const isReference = typeof node.$ref === 'string';
    if (
      types.length === 0 &&
      !isReference &&
      node.anyOf === undefined &&
      node.enum === undefined &&
      node.const === undefined
    ) {
      problems.push(
        problem(
          path,
          'missing-type',
          'Every schema needs a `type` (or `anyOf`, `enum`, `const`, `$ref`) in strict mode.',
        ),
      );
    }
    if (isReference && !/^#(\/(\$defs|definitions)\/[^/]+)?$/.test(node.$ref as string)) {
      problems.push(
        problem(path, 'reference', `Reference ${node.$ref} must point to \`#\` or \`#/$defs/<name>\`.`),
      );
    }
    const allowed = new Set(openAIStrictCommonKeywords);
    for (const type of types) {
      const perType = openAIStrictTypeKeywords[type];
      if (perType === undefined) problems.push(problem(path, 'unknown-type', `Unknown type \`${type}\`.`));
      else for (const keyword of perType) allowed.add(keyword);
    }
    for (const key of Object.keys(node)) {
      if (allowed.has(key)) continue;
      const known = Object.values(openAIStrictTypeKeywords).some((set) => set.has(key));
      problems.push(
        problem(
          appendPointer(path, key),
          'unsupported-keyword',
          known
            ? `\`${key}\` is not allowed for type ${stableStringify(node.type ?? 'unspecified')} in strict mode.`
            : `\`${key}\` is not supported in strict mode.`,
          key === 'default' || key === 'examples' ? 'warning' : 'error',
        ),
      );
    }
    if (typeof node.format === 'string' && !openAIStrictFormats.has(node.format)) {
      problems.push(
        problem(
          appendPointer(path, 'format'),
          'unsupported-format',
          `String format \`${node.format}\` is not supported in strict mode (supported: ${[...openAIStrictFormats].join(', ')}).`,
        ),
      );
    }
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      let enumLength = 0;
      for (const value of node.enum)
        enumLength += typeof value === 'string' ? value.length : stableStringify(value).length;
      stringLength += enumLength;
      if (
        node.enum.length > limits.largeEnumThreshold &&
        node.enum.every((value) => typeof value === 'string') &&
        enumLength > limits.maxLargeEnumStringLength
      ) {
        problems.push(
          problem(
            appendPointer(path, 'enum'),
            'enum-string-length',
            `A string enum with ${node.enum.length} values (more than ${limits.largeEnumThreshold}) may total at most ${limits.maxLargeEnumStringLength} characters; this one has ${enumLength}.`,
          ),
        );
      }
    }
    if (node.const !== undefined) {
      stringLength += typeof node.const === 'string' ? node.const.length : stableStringify(node.const).length;
    }
    const isObject = types.includes('object');
    const depth = isObject ? objectDepth + 1 : objectDepth;
    if (isObject) {
      if (depth > deepest.depth) deepest = { depth, path };
      const properties = propertiesOf(node);
      const names = Object.keys(properties);
      propertyCount += names.length;
      for (const name of names) stringLength += name.length;
      if (node.additionalProperties !== false) {
        problems.push(
          problem(
            appendPointer(path, 'additionalProperties'),
            'additional-properties',
            'Every object needs `additionalProperties: false` in strict mode.',
          ),
        );
      }
      const required = requiredOf(node);
      for (const name of names) {
        if (!required.includes(name)) {
          problems.push(
            problem(
              appendPointer(appendPointer(path, 'properties'), name),
              'not-required',
              `Property \`${name}\` must be listed in \`required\` in strict mode (make it nullable to keep it optional).`,
            ),
          );
        }
      }
      problems.push(...unknownRequired(required, properties, path));
      for (const [name, property] of Object.entries(properties)) {
        visit(property, appendPointer(appendPointer(path, 'properties'), name), depth);
      }
    }
    if (node.items !== undefined && types.includes('array')) {
      if (Array.isArray(node.items)) {
        problems.push(
          problem(appendPointer(path, 'items'), 'tuple', 'Tuples (`items` as a list) are not supported.'),
        );
      } else visit(node.items, appendPointer(path, 'items'), depth);
    }
    if (Array.isArray(node.anyOf)) {
      node.anyOf.forEach((branch, index) => {
        visit(branch, appendPointer(appendPointer(path, 'anyOf'), index), objectDepth);
      });
    }
    for (const definitions of ['$defs', 'definitions'] as const) {
      const map = node[definitions];
      if (!isPlainObject(map)) continue;
      for (const [name, definition] of Object.entries(map)) {
        stringLength += name.length;
        visit(definition, appendPointer(appendPointer(path, definitions), name), 0);
      }
    }
  };

  visit(schema, '', 0);
  if (deepest.depth > limits.maxNestingDepth) {
    problems.push(
      problem(
        deepest.path,
        'max-depth',
        `Objects are nested ${deepest.depth} levels deep; strict mode allows ${limits.maxNestingDepth}.`,
      ),
    );
  }
  if (propertyCount > limits.maxProperties) {
    problems.push(
      problem(
        '',
        'max-properties',
        `The schema has ${propertyCount} object properties in total; strict mode allows ${limits.maxProperties}.`,
      ),
    );
  }
  if (stringLength > limits.maxTotalStringLength) {
    problems.push(
      problem(
        '',
        'max-string-length',
        `Property names, definition names, enum and const values total ${stringLength} characters; strict mode allows ${limits.maxTotalStringLength}.`,
      ),
    );
  }
  if (enumValues > limits.maxEnumValues) {
    problems.push(
      problem(
        '',
        'max-enum-values',
        `The schema has ${enumValues} enum values; strict mode allows ${limits.maxEnumValues}.`,
      ),
    );
  }
  return problems;
}

function checkGemini(schema: JsonSchema): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  if (typeof schema.type !== 'string' || schema.type.toUpperCase() !== 'OBJECT') {
    problems.push(
      problem('/type', 'root-not-object', 'Gemini function parameters must be an OBJECT schema.'),
    );
  }
  const visit = (node: unknown, path: string): void => {
    if (!isPlainObject(node)) {
      problems.push(problem(path, 'not-a-schema', `Expected a schema object, got ${stableStringify(node)}.`));
      return;
    }
    for (const key of Object.keys(node)) {
      if (geminiSchemaKeywords.has(key)) continue;
      const rule = key === '$ref' ? 'reference' : 'unsupported-keyword';
      problems.push(
        problem(
          appendPointer(path, key),
          rule,
          key === '$ref'
            ? 'Gemini does not resolve `$ref`; inline the referenced schema.'
            : `\`${key}\` is not a field of Gemini's Schema (an OpenAPI 3.0 subset).`,
        ),
      );
    }
    const type = node.type;
    if (type === undefined) {
      if (!Array.isArray(node.anyOf)) {
        problems.push(problem(path, 'missing-type', 'Every Gemini schema needs a `type` (or `anyOf`).'));
      }
    } else if (typeof type !== 'string') {
      problems.push(
        problem(
          appendPointer(path, 'type'),
          'type-array',
          `Gemini takes one type, not ${stableStringify(type)}; use \`nullable: true\` or \`anyOf\`.`,
        ),
      );
    } else if (!geminiTypes.has(type.toUpperCase())) {
      problems.push(problem(appendPointer(path, 'type'), 'unknown-type', `Unknown Gemini type \`${type}\`.`));
    }
    const upperType = typeof type === 'string' ? type.toUpperCase() : undefined;
    if (Array.isArray(node.enum) && !node.enum.every((value) => typeof value === 'string')) {
      problems.push(
        problem(appendPointer(path, 'enum'), 'non-string-enum', 'Gemini enum values must be strings.'),
      );
    }
    if (typeof node.format === 'string' && upperType !== undefined) {
      const allowed = geminiFormats[upperType];
      if (allowed === undefined || !allowed.has(node.format)) {
        problems.push(
          problem(
            appendPointer(path, 'format'),
            'unsupported-format',
            `Format \`${node.format}\` is not accepted for ${upperType} by the Gemini API${allowed ? ` (accepted: ${[...allowed].join(', ')})` : ''}.`,
          ),
        );
      }
    }
    if (upperType === 'OBJECT') {
      const properties = propertiesOf(node);
      if (Object.keys(properties).length === 0) {
        problems.push(
          problem(
            path,
            'empty-object',
            'Gemini may reject an OBJECT without properties; omit `parameters` for a tool without arguments.',
            'warning',
          ),
        );
      }
      problems.push(...unknownRequired(requiredOf(node), properties, path));
      for (const [name, property] of Object.entries(properties)) {
        const propertyPath = appendPointer(appendPointer(path, 'properties'), name);
        if (!geminiParameterNamePattern.test(name)) {
          problems.push(
            problem(
              propertyPath,
              'parameter-name',
              `Parameter name ${JSON.stringify(name)} breaks Vertex AI's rule (a letter or \`_\` first, then letters, digits and \`_\`, at most 64).`,
              'warning',
            ),
          );
        }
        visit(property, propertyPath);
      }
    }
    if (isPlainObject(node.items)) visit(node.items, appendPointer(path, 'items'));
    if (Array.isArray(node.anyOf)) {
      node.anyOf.forEach((branch, index) => {
        visit(branch, appendPointer(appendPointer(path, 'anyOf'), index));
      });
    }
  };
  visit(schema, '');
  return problems;
}

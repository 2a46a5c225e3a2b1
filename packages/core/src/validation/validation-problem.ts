/**
 * Turns ajv's error objects into problems a model (or a person) can act on: plain words, a
 * readable path to the offending argument, what was expected and what was given.
 */
import type { ErrorObject } from 'ajv';
import { isPlainObject, jsonTypeOf, truncateText } from '../schema/json-schema-utilities.js';

/** One reason arguments do not match a tool's input schema. */
export interface ValidationProblem {
  /** Readable path of the argument, e.g. `edits[0].oldText` (empty for the arguments object itself). */
  path: string;
  /** JSON pointer of the argument, e.g. `/edits/0/oldText`. */
  pointer: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `enum`...). */
  keyword: string;
  /** The problem in plain words, e.g. "`count` must be an integer, got string \"3\"". */
  message: string;
  /** The keyword's parameters as ajv reports them (`missingProperty`, `allowedValues`...). */
  params: Record<string, unknown>;
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Converts a JSON pointer into a readable path (`/edits/0/oldText` → `edits[0].oldText`). */
export function readablePath(pointer: string): string {
  if (pointer === '') return '';
  let result = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^\d+$/.test(segment)) result += `[${segment}]`;
    else if (identifier.test(segment)) result += result === '' ? segment : `.${segment}`;
    else result += `[${JSON.stringify(segment)}]`;
  }
  return result;
}

function joinPath(parent: string, child: string): string {
  if (parent === '') return readablePath(`/${child.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  return identifier.test(child) ? `${parent}.${child}` : `${parent}[${JSON.stringify(child)}]`;
}

/** Describes a value briefly for messages: `string "3"`, `number 4.5`, `null`, `object {…}`. */
export function describeValue(value: unknown): string {
  const type = jsonTypeOf(value);
  if (type === 'null' || type === 'undefined') return type;
  const text = truncateText(JSON.stringify(value) ?? String(value), 80);
  return `${type === 'integer' ? 'number' : type} ${text}`;
}

const articles: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.map((entry) => articles[String(entry)] ?? String(entry)).join(' or ');
}

function subject(path: string): string {
  return path === '' ? 'the arguments' : `\`${path}\``;
}

function formatLimit(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * Converts ajv errors into problems. Errors inside the alternatives of a failed `anyOf`/`oneOf`
 * are folded into that one problem: listing why each alternative failed confuses more than it helps.
 */
export function toValidationProblems(errors: readonly ErrorObject[]): ValidationProblem[] {
  const unions = errors
    .filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
    .map((error) => `${error.schemaPath}/`);
  const problems: ValidationProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (unions.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const problem = toProblem(error);
    const key = `${problem.pointer}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

function toProblem(error: ErrorObject): ValidationProblem {
  const pointer = error.instancePath;
  const path = readablePath(pointer);
  const params = error.params as Record<string, unknown>;
  const got = `got ${describeValue(error.data)}`;
  let message: string;
  let problemPath = path;
  let problemPointer = pointer;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      problemPath = joinPath(path, missing);
      problemPointer = `${pointer}/${missing.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      message = `\`${problemPath}\` is required`;
      break;
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      problemPath = joinPath(path, extra);
      problemPointer = `${pointer}/${extra.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      const allowed = isPlainObject(error.parentSchema?.properties)
        ? Object.keys(error.parentSchema.properties)
        : [];
      message = `unexpected property \`${extra}\`${path === '' ? '' : ` in \`${path}\``}${allowed.length > 0 ? ` (allowed: ${allowed.map((name) => `\`${name}\``).join(', ')})` : ''}`;
      break;
    }
    case 'type':
      message = `${subject(path)} must be ${typeWords(params.type)}, ${got}`;
      break;
    case 'enum':
      message = `${subject(path)} must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}, ${got}`;
      break;
    case 'const':
      message = `${subject(path)} must be ${JSON.stringify(params.allowedValue)}, ${got}`;
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      message = `${subject(path)} must be ${String(params.comparison)} ${formatLimit(params.limit)}, ${got}`;
      break;
    case 'multipleOf':
      message = `${subject(path)} must be a multiple of ${String(params.multipleOf)}, ${got}`;
      break;
    case 'minLength':
      message = `${subject(path)} must be at least ${String(params.limit)} character(s) long, ${got}`;
      break;
    case 'maxLength':
      message = `${subject(path)} must be at most ${String(params.limit)} character(s) long, ${got}`;
      break;
    case 'minItems':
      message = `${subject(path)} must have at least ${String(params.limit)} item(s), got ${(error.data as unknown[]).length}`;
      break;
    case 'maxItems':
      message = `${subject(path)} must have at most ${String(params.limit)} item(s), got ${(error.data as unknown[]).length}`;
      break;
    case 'minProperties':
      message = `${subject(path)} must have at least ${String(params.limit)} propert(ies)`;
      break;
    case 'maxProperties':
      message = `${subject(path)} must have at most ${String(params.limit)} propert(ies)`;
      break;
    case 'uniqueItems':
      message = `${subject(path)} must not contain duplicates (items ${String(params.j)} and ${String(params.i)} are equal)`;
      break;
    case 'pattern':
      message = `${subject(path)} must match the pattern /${String(params.pattern)}/, ${got}`;
      break;
    case 'format':
      message = `${subject(path)} must be a valid ${String(params.format)}, ${got}`;
      break;
    case 'anyOf':
      message = `${subject(path)} does not match any of the allowed alternatives, ${got}`;
      break;
    case 'oneOf':
      message =
        params.passingSchemas === null
          ? `${subject(path)} does not match any of the allowed alternatives, ${got}`
          : `${subject(path)} matches more than one alternative where exactly one is allowed, ${got}`;
      break;
    case 'dependentRequired':
    case 'dependencies':
      message = `\`${joinPath(path, String(params.missingProperty))}\` is required when \`${joinPath(path, String(params.property))}\` is given`;
      break;
    case 'not':
      message = `${subject(path)} must not match the excluded schema, ${got}`;
      break;
    case 'propertyNames':
      message = `property name ${JSON.stringify(params.propertyName)}${path === '' ? '' : ` in \`${path}\``} is not allowed`;
      break;
    default:
      message = `${subject(path)} ${error.message ?? `fails \`${error.keyword}\``}`;
  }
  return { path: problemPath, pointer: problemPointer, keyword: error.keyword, message, params };
}

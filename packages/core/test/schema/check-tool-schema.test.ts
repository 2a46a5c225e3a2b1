import { describe, expect, it } from 'vitest';
import { checkToolName, checkToolSchema } from '../../src/index.js';
import { hugeSchema } from '../fixtures/hard-schemas.js';

const rules = (problems: Array<{ rule: string; path: string }>) =>
  problems.map((problem) => `${problem.rule} ${problem.path}`);

describe('checkToolSchema for OpenAI strict mode', () => {
  it('accepts a strict schema with $defs, anyOf and supported keywords', () => {
    expect(
      checkToolSchema(
        {
          type: 'object',
          properties: {
            name: { type: 'string', pattern: '^[a-z]+$', format: 'email' },
            size: { type: ['integer', 'null'], minimum: 0 },
            tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
            item: { anyOf: [{ $ref: '#/$defs/item' }, { type: 'null' }] },
          },
          required: ['name', 'size', 'tags', 'item'],
          additionalProperties: false,
          $defs: {
            item: {
              type: 'object',
              properties: { id: { type: 'string' } },
              required: ['id'],
              additionalProperties: false,
            },
          },
        },
        'openai-strict',
      ),
    ).toEqual([]);
  });

  it('reports the documented violations with their paths', () => {
    const problems = checkToolSchema(
      {
        anyOf: [{ type: 'object' }],
        type: 'object',
        properties: {
          a: { type: 'string', minLength: 2, format: 'uri' },
          b: { type: 'object', properties: { c: { type: 'number' } }, required: ['c'] },
          d: { allOf: [{ type: 'string' }] },
        },
        required: ['a', 'b', 'x'],
        additionalProperties: false,
      },
      'openai-strict',
    );
    expect(rules(problems)).toEqual([
      'root-union /anyOf',
      'not-required /properties/d',
      'unknown-required /required',
      'unsupported-keyword /properties/a/minLength',
      'unsupported-format /properties/a/format',
      'additional-properties /properties/b/additionalProperties',
      'missing-type /properties/d',
      'unsupported-keyword /properties/d/allOf',
      'additional-properties /anyOf/0/additionalProperties',
    ]);
  });

  it('enforces nesting depth and property count, with limits configurable', () => {
    const deep = checkToolSchema(hugeSchema(3, 11), 'openai-strict').filter(
      (problem) => problem.rule === 'max-depth',
    );
    expect(deep).toEqual([
      expect.objectContaining({ message: 'Objects are nested 11 levels deep; strict mode allows 10.' }),
    ]);
    const legacy = checkToolSchema(hugeSchema(30, 6), 'openai-strict', {
      limits: { maxProperties: 100, maxNestingDepth: 5 },
    });
    expect(legacy.map((problem) => problem.rule)).toEqual(
      expect.arrayContaining(['max-depth', 'max-properties']),
    );
  });

  it('enforces enum limits', () => {
    const big = Array.from({ length: 300 }, (_, index) => `value-${index}-${'x'.repeat(60)}`);
    const problems = checkToolSchema(
      {
        type: 'object',
        properties: {
          a: { type: 'string', enum: big },
          b: { type: 'string', enum: big.slice(0, 200) },
          c: { type: 'integer', enum: Array.from({ length: 600 }, (_, index) => index) },
        },
        required: ['a', 'b', 'c'],
        additionalProperties: false,
      },
      'openai-strict',
    );
    expect(problems.map((problem) => problem.rule)).toEqual(['enum-string-length', 'max-enum-values']);
  });
});

describe('checkToolSchema for Gemini', () => {
  it('accepts the OpenAPI subset and reports what Gemini rejects', () => {
    expect(
      checkToolSchema(
        {
          type: 'OBJECT',
          properties: { a: { type: 'STRING', nullable: true, enum: ['x'], format: 'enum' } },
          required: ['a'],
        },
        'gemini',
      ),
    ).toEqual([]);
    const problems = checkToolSchema(
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          a: { type: ['string', 'null'] },
          b: { $ref: '#/$defs/b' },
          c: { type: 'integer', enum: [1, 2] },
          d: { type: 'string', format: 'uri' },
          'e-f': { type: 'object', properties: {} },
        },
      },
      'gemini',
    );
    expect(problems.map((problem) => `${problem.severity} ${problem.rule} ${problem.path}`)).toEqual([
      'error unsupported-keyword /additionalProperties',
      'error type-array /properties/a/type',
      'error reference /properties/b/$ref',
      'error missing-type /properties/b',
      'error non-string-enum /properties/c/enum',
      'error unsupported-format /properties/d/format',
      'warning parameter-name /properties/e-f',
      'warning empty-object /properties/e-f',
    ]);
  });
});

describe('checkToolSchema for Anthropic and OpenAI', () => {
  it('requires a root object without a root union', () => {
    expect(checkToolSchema({ type: 'object', properties: {} }, 'anthropic')).toEqual([]);
    expect(rules(checkToolSchema({ oneOf: [{ type: 'object' }] }, 'anthropic'))).toEqual([
      'root-not-object /type',
      'root-union /oneOf',
    ]);
    expect(rules(checkToolSchema({ type: 'string' }, 'openai'))).toEqual(['root-not-object /type']);
  });
});

describe('checkToolName', () => {
  it('applies each provider rule', () => {
    expect(checkToolName('mcp__github__create_issue', 'openai-strict')).toEqual([]);
    expect(checkToolName('a'.repeat(65), 'anthropic')).toHaveLength(1);
    expect(checkToolName('files.read', 'openai')).toHaveLength(1);
    expect(checkToolName('files.read', 'gemini')).toEqual([]);
    expect(checkToolName('1tool', 'gemini')[0]).toMatchObject({ rule: 'invalid-name', path: '/name' });
  });
});

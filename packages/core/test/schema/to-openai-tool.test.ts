import { describe, expect, it } from 'vitest';
import type { RegisteredTool } from '../../src/index.js';
import { checkToolSchema, removeStrictModeNulls, toOpenAITool } from '../../src/index.js';
import { enumsAndNullables, hugeSchema, rootUnion } from '../fixtures/hard-schemas.js';

const readFile = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1 },
      tail: { type: 'number', description: 'Last N lines' },
      options: {
        type: 'object',
        properties: { encoding: { type: 'string', enum: ['utf8', 'base64'] } },
      },
    },
    required: ['path'],
  },
};

describe('toOpenAITool', () => {
  it('keeps the schema as a non-strict function tool', () => {
    const { result, lossy } = toOpenAITool(readFile);
    expect(result).toEqual({
      type: 'function',
      function: {
        name: 'read_file',
        description: 'Read a file',
        strict: false,
        parameters: {
          type: 'object',
          properties: readFile.inputSchema.properties,
          required: ['path'],
        },
      },
    });
    expect(lossy).toEqual([]);
  });

  it('in strict mode requires every property, makes optional ones nullable and closes every object', () => {
    const { result, lossy } = toOpenAITool(readFile, { strict: true });
    expect(result.function.strict).toBe(true);
    expect(result.function.parameters).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'At least 1 character.' },
        tail: { type: ['number', 'null'], description: 'Last N lines' },
        options: {
          type: ['object', 'null'],
          properties: { encoding: { type: ['string', 'null'], enum: ['utf8', 'base64', null] } },
          required: ['encoding'],
          additionalProperties: false,
        },
      },
      required: ['path', 'tail', 'options'],
      additionalProperties: false,
    });
    expect(lossy.map((change) => [change.path, change.kind])).toEqual([
      ['/properties/path/minLength', 'moved-to-description'],
      ['/properties/tail', 'made-nullable'],
      ['/properties/options/properties/encoding', 'made-nullable'],
      ['/properties/options', 'made-nullable'],
    ]);
    expect(checkToolSchema(result.function.parameters, 'openai-strict')).toEqual([]);
  });

  it('accepts a RegisteredTool and uses its public name', () => {
    const tool: RegisteredTool = {
      name: 'mcp__files__read_file',
      server: 'files',
      originalName: 'read_file',
      description: 'Read a file',
      inputSchema: readFile.inputSchema,
    };
    expect(toOpenAITool(tool).result.function.name).toBe('mcp__files__read_file');
  });

  it('flattens a root union and reports it', () => {
    const { result, lossy } = toOpenAITool({ name: 'find', inputSchema: rootUnion }, { strict: true });
    expect(Object.keys(result.function.parameters.properties as object)).toEqual(['id', 'query', 'limit']);
    expect(lossy[0]).toMatchObject({ path: '/anyOf', kind: 'union-flattened' });
    expect(checkToolSchema(result.function.parameters, 'openai-strict')).toEqual([]);
  });

  it('flattens a root anyOf of required-lists onto the properties beside it', () => {
    const { result, lossy } = toOpenAITool({
      name: 'lookup',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string' }, email: { type: 'string' } },
        anyOf: [{ required: ['id'] }, { required: ['email'] }],
      },
    });
    expect(result.function.parameters).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, email: { type: 'string' } },
    });
    expect(lossy).toEqual([
      {
        path: '/anyOf',
        kind: 'union-flattened',
        message:
          'The root anyOf of 2 alternative(s) was flattened into one object with the union of their properties; which combinations are valid is no longer enforced.',
      },
    ]);
  });

  it('moves unsupported formats and defaults into descriptions', () => {
    const { result, lossy } = toOpenAITool(
      { name: 'enums', inputSchema: enumsAndNullables },
      { strict: true },
    );
    const properties = result.function.parameters.properties as Record<string, any>;
    expect(properties.website.description).toContain('Format: uri.');
    expect(properties.website.format).toBeUndefined();
    expect(properties.when.format).toBe('date-time');
    expect(properties.unit.description).toBe('Default: "celsius".');
    expect(properties.mixed).toEqual({
      type: ['string', 'integer', 'boolean', 'null'],
      enum: ['auto', 0, true, null],
    });
    expect(lossy).toContainEqual(
      expect.objectContaining({ path: '/properties/website/format', kind: 'moved-to-description' }),
    );
  });

  it('reports strict-mode limits it cannot fix as target-limit-exceeded', () => {
    const { lossy } = toOpenAITool({ name: 'huge', inputSchema: hugeSchema(10, 12) }, { strict: true });
    expect(lossy.filter((change) => change.kind === 'target-limit-exceeded')).toEqual([
      expect.objectContaining({ message: 'Objects are nested 12 levels deep; strict mode allows 10.' }),
    ]);
  });

  it('reports a tool name OpenAI rejects', () => {
    const { lossy } = toOpenAITool({ name: 'files.read file', inputSchema: { type: 'object' } });
    expect(lossy).toEqual([expect.objectContaining({ path: '/name', kind: 'target-limit-exceeded' })]);
  });
});

describe('removeStrictModeNulls', () => {
  it('drops nulls of optional properties that do not accept null, at any depth', () => {
    const args = { path: 'a.txt', tail: null, options: { encoding: null } };
    expect(removeStrictModeNulls(readFile.inputSchema, args)).toEqual({ path: 'a.txt', options: {} });
  });

  it('keeps nulls the original schema accepts and required ones', () => {
    const schema = {
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        must: { type: 'string' },
        items: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } } } },
      },
      required: ['must'],
    };
    expect(removeStrictModeNulls(schema, { note: null, must: null, items: [{ x: null }, { x: 1 }] })).toEqual(
      {
        note: null,
        must: null,
        items: [{}, { x: 1 }],
      },
    );
  });
});

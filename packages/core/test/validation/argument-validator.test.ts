import { describe, expect, it } from 'vitest';
import type { ArgumentValidator, McpToolDefinition, ValidationProblem } from '../../src/index.js';
import { createArgumentValidator, SwitchboardError, schemaDialect } from '../../src/index.js';
import { recursiveTree, tuples } from '../fixtures/hard-schemas.js';
import { loadFixtureTools } from '../fixtures/load-fixtures.js';

const writeFile: McpToolDefinition = {
  name: 'write_file',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      path: { type: 'string' },
      count: { type: 'integer', minimum: 1 },
      mode: { type: 'string', enum: ['overwrite', 'append'] },
      owner: {
        type: 'object',
        properties: { email: { type: 'string', format: 'email' } },
        additionalProperties: false,
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
};

function problemsOf(
  result: ReturnType<ReturnType<typeof createArgumentValidator>['validate']>,
): ValidationProblem[] {
  expect(result.valid).toBe(false);
  return result.problems;
}

describe('createArgumentValidator', () => {
  it('accepts valid arguments, and omitted arguments when nothing is required', () => {
    const validator = createArgumentValidator();
    expect(validator.validate(writeFile, { path: 'a.txt', count: 2, mode: 'append' })).toEqual({
      valid: true,
      problems: [],
    });
    expect(validator.validate({ name: 'ping', inputSchema: { type: 'object' } }, undefined).valid).toBe(true);
  });

  it('explains every problem in plain words with readable paths', () => {
    const validator = createArgumentValidator();
    const result = validator.validate(writeFile, {
      count: '3',
      mode: 'replace',
      foo: 1,
      owner: { email: 'nope', age: 3 },
    });
    expect(problemsOf(result).map((problem) => problem.message)).toEqual([
      '`path` is required',
      'unexpected property `foo` (allowed: `path`, `count`, `mode`, `owner`)',
      '`count` must be an integer, got string "3"',
      '`mode` must be one of "overwrite", "append", got string "replace"',
      'unexpected property `age` in `owner` (allowed: `email`)',
      '`owner.email` must be a valid email, got string "nope"',
    ]);
    expect(problemsOf(result)[0]).toMatchObject({ path: 'path', pointer: '/path', keyword: 'required' });
  });

  it('fails with a VALIDATION_FAILED error a model can act on', () => {
    const validator: ArgumentValidator = createArgumentValidator();
    const args = { path: 7, count: 0 };
    let thrown: unknown;
    try {
      validator.assertValid(writeFile, args);
    } catch (error) {
      thrown = error;
    }
    expect(SwitchboardError.hasCode(thrown, 'VALIDATION_FAILED')).toBe(true);
    const error = thrown as SwitchboardError;
    expect(error.message).toContain('Invalid arguments for tool `write_file` (2 problems):');
    expect(error.message).toContain('- `path` must be a string, got number 7');
    expect(error.message).toContain('- `count` must be >= 1, got number 0');
    expect(error.message).toContain(
      'Expected input schema: {"type":"object","properties":{"path":{"type":"string"}',
    );
    expect(error.message).not.toContain('$schema');
    expect(error.message).toContain('Arguments given: {"path":7,"count":0}');
    expect(error.message).toContain('call `write_file` again');
    expect(error.context.tool).toBe('write_file');
    expect((error.context.problems as ValidationProblem[]).map((problem) => problem.keyword)).toEqual([
      'type',
      'minimum',
    ]);
  });

  it('rejects non-object arguments clearly', () => {
    const result = createArgumentValidator().validate(writeFile, ['a.txt']);
    expect(problemsOf(result)[0]?.message).toBe(
      'the arguments must be an object of named arguments, got array ["a.txt"]',
    );
  });

  it('folds the alternatives of a failed anyOf into one problem', () => {
    const tool = {
      name: 'pick',
      inputSchema: {
        type: 'object',
        properties: { id: { anyOf: [{ type: 'integer' }, { type: 'string', minLength: 3 }] } },
      },
    };
    const result = createArgumentValidator().validate(tool, { id: 'ab' });
    expect(problemsOf(result).map((problem) => problem.message)).toEqual([
      '`id` does not match any of the allowed alternatives, got string "ab"',
    ]);
  });

  it('shortens long schemas and arguments in the message', () => {
    const validator = createArgumentValidator({ maxSchemaCharacters: 40, maxArgumentsCharacters: 20 });
    const result = validator.validate(writeFile, { path: 'x'.repeat(100), count: 'many' });
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.error.message).toMatch(/Expected input schema: .{40}… \(\d+ more characters\)/);
      expect(result.error.message).toMatch(/Arguments given: .{20}… \(\d+ more characters\)/);
    }
  });

  it('compiles once per tool and reuses the compiled validator', () => {
    const validator = createArgumentValidator();
    for (let index = 0; index < 50; index++) validator.validate(writeFile, { path: `file-${index}` });
    expect(validator.stats()).toEqual({ compilations: 1, cacheHits: 49, cacheMisses: 1 });
    // Another tool object with an identical schema shares the compiled validator.
    validator.validate(
      { ...writeFile, name: 'write_file_copy', inputSchema: structuredClone(writeFile.inputSchema) },
      { path: 'a' },
    );
    expect(validator.stats().compilations).toBe(1);
  });

  it('recompiles when a tool schema changes', () => {
    const validator = createArgumentValidator();
    const tool: McpToolDefinition = {
      name: 'search',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    };
    expect(validator.validate(tool, { q: 1 }).valid).toBe(false);
    tool.inputSchema = { type: 'object', properties: { q: { type: 'number' } } };
    expect(validator.validate(tool, { q: 1 }).valid).toBe(true);
    expect(validator.stats().compilations).toBe(2);
    validator.clear();
    validator.validate(tool, { q: 1 });
    expect(validator.stats().compilations).toBe(3);
  });

  it('reports a schema that cannot compile as INVALID_SCHEMA naming the tool, once', () => {
    const validator: ArgumentValidator = createArgumentValidator();
    const broken = { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'strng' } } } };
    const result = validator.validate(broken, { a: 1 });
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.error.code).toBe('INVALID_SCHEMA');
      expect(result.error.message).toContain('Tool `broken` has an input schema that cannot be compiled');
      expect(result.error.context.tool).toBe('broken');
    }
    expect(() => validator.assertValid(broken, {})).toThrow(/Tool `broken`/);
    expect(validator.stats().compilations).toBe(1);
    // Other tools keep working.
    expect(validator.validate(writeFile, { path: 'a' }).valid).toBe(true);
  });

  it('chooses the dialect: $schema, draft-07 forms, else 2020-12', () => {
    expect(schemaDialect(recursiveTree)).toBe('2020-12');
    expect(schemaDialect(writeFile.inputSchema)).toBe('draft-07');
    expect(schemaDialect({ type: 'array', items: [{ type: 'string' }] })).toBe('draft-07');
    expect(schemaDialect({ type: 'object' })).toBe('2020-12');
    const validator = createArgumentValidator();
    const tupleTool = { name: 'tuples', inputSchema: tuples };
    expect(validator.validate(tupleTool, { point: [1, 2] }).valid).toBe(true);
    expect(problemsOf(validator.validate(tupleTool, { point: [1, 'b'] }))[0]?.message).toBe(
      '`point[1]` must be a number, got string "b"',
    );
    expect(
      validator.validate(
        { name: 'tree', inputSchema: recursiveTree },
        { root: { name: 'a', children: [{ name: '' }] } },
      ).valid,
    ).toBe(false);
    const draft04 = {
      name: 'old',
      inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', required: ['a'] },
    };
    expect(problemsOf(validator.validate(draft04, {}))[0]?.message).toBe('`a` is required');
  });

  it('can skip format checks', () => {
    const validator = createArgumentValidator({ formats: false });
    expect(validator.validate(writeFile, { path: 'a', owner: { email: 'nope' } }).valid).toBe(true);
  });

  it('validates arguments of every real fixture tool', () => {
    const validator = createArgumentValidator();
    for (const { tool } of loadFixtureTools()) {
      const required = (tool.inputSchema.required ?? []) as string[];
      const result = validator.validate(tool, {});
      expect(result.valid).toBe(required.length === 0);
      if (!result.valid) {
        expect(result.problems.map((problem) => problem.message)).toEqual(
          required.map((name) => `\`${name}\` is required`),
        );
        expect(result.error.message).toContain(`tool \`${tool.name}\``);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { toZodSchema } from '../../src/index.js';
import { enumsAndNullables, recursiveTree, tuples, unionsOfObjects } from '../fixtures/hard-schemas.js';

function accepts(schema: z.ZodType, value: unknown): boolean {
  return schema.safeParse(value).success;
}

describe('toZodSchema', () => {
  it('checks required and optional properties, types and integers', () => {
    const { result, lossy } = toZodSchema({
      type: 'object',
      properties: {
        path: { type: 'string' },
        count: { type: 'integer', minimum: 1 },
        ratio: { type: 'number', exclusiveMaximum: 1 },
      },
      required: ['path'],
    });
    expect(lossy).toEqual([]);
    expect(accepts(result, { path: 'a' })).toBe(true);
    expect(accepts(result, { path: 'a', count: 2, ratio: 0.5 })).toBe(true);
    expect(accepts(result, {})).toBe(false);
    expect(accepts(result, { path: 'a', count: 1.5 })).toBe(false);
    expect(accepts(result, { path: 'a', count: 0 })).toBe(false);
    expect(accepts(result, { path: 'a', ratio: 1 })).toBe(false);
  });

  it('handles enums, nullable types, const, formats, defaults and descriptions', () => {
    const { result, lossy } = toZodSchema(enumsAndNullables);
    expect(lossy).toEqual([]);
    const valid = { unit: 'celsius', note: null };
    expect(result.parse(valid)).toEqual(valid);
    // `unit` is required: a default does not make a required property optional.
    expect(accepts(result, { note: 'hi' })).toBe(false);
    expect(accepts(result, { unit: 'kelvin', note: null })).toBe(false);
    expect(accepts(result, { ...valid, note: 'x'.repeat(21) })).toBe(false);
    expect(accepts(result, { ...valid, mixed: 0 })).toBe(true);
    expect(accepts(result, { ...valid, mixed: 1 })).toBe(false);
    expect(accepts(result, { ...valid, version: 'v2' })).toBe(false);
    expect(accepts(result, { ...valid, email: 'not-an-email' })).toBe(false);
    expect(accepts(result, { ...valid, when: '2024-01-02T03:04:05Z', website: 'https://example.com' })).toBe(
      true,
    );
    expect(accepts(result, { ...valid, when: 'yesterday' })).toBe(false);
    expect(accepts(result, { ...valid, count: null })).toBe(true);
    const withDefault = toZodSchema({
      type: 'object',
      properties: { unit: { type: 'string', default: 'celsius' } },
    });
    expect(withDefault.result.parse({})).toEqual({ unit: 'celsius' });
  });

  it('keeps descriptions for models to read', () => {
    const { result } = toZodSchema({
      type: 'object',
      properties: { q: { type: 'string', description: 'The query' } },
    });
    const shape = (result as z.ZodObject).shape as Record<string, z.ZodType>;
    expect(shape.q?.description).toBe('The query');
  });

  it('builds tuples from prefixItems, with closed and open rests and unique items', () => {
    const { result } = toZodSchema(tuples);
    expect(accepts(result, { point: [1, 2] })).toBe(true);
    expect(accepts(result, { point: [1, 2, 3] })).toBe(false);
    expect(accepts(result, { point: [1] })).toBe(false);
    expect(accepts(result, { point: [1, 2], labelledRow: ['a', 1, 2] })).toBe(true);
    expect(accepts(result, { point: [1, 2], labelledRow: ['a', 'b'] })).toBe(false);
    expect(accepts(result, { point: [1, 2], tags: ['a', 'a'] })).toBe(false);
  });

  it('builds unions of objects, exclusive oneOf and merged allOf', () => {
    const { result } = toZodSchema(unionsOfObjects);
    expect(accepts(result, { shape: { kind: 'circle', radius: 2 } })).toBe(true);
    expect(accepts(result, { shape: { kind: 'circle', radius: 0 } })).toBe(false);
    expect(accepts(result, { shape: { kind: 'circle', radius: 2, extra: 1 } })).toBe(false);
    expect(accepts(result, { shape: { kind: 'rectangle', width: 1, height: 2 } })).toBe(true);
    expect(accepts(result, { shape: { kind: 'circle', radius: 1 }, identifier: 5 })).toBe(true);
    expect(accepts(result, { shape: { kind: 'circle', radius: 1 }, identifier: 'ab' })).toBe(false);
    expect(
      accepts(result, { shape: { kind: 'circle', radius: 1 }, labelled: { label: 'x', color: 'red' } }),
    ).toBe(true);
    expect(accepts(result, { shape: { kind: 'circle', radius: 1 }, labelled: { label: 'x' } })).toBe(false);
  });

  it('honours additionalProperties: false, a schema, or open', () => {
    const closed = toZodSchema({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    });
    expect(accepts(closed.result, { a: 'x', b: 1 })).toBe(false);
    const typed = toZodSchema({ type: 'object', additionalProperties: { type: 'number' } });
    expect(accepts(typed.result, { x: 1, y: 2 })).toBe(true);
    expect(accepts(typed.result, { x: 'one' })).toBe(false);
    const open = toZodSchema({ type: 'object', properties: { a: { type: 'string' } } });
    expect(open.result.parse({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
  });

  it('reports what zod cannot check, and survives recursion', () => {
    const { lossy } = toZodSchema({
      type: 'object',
      properties: { a: { type: 'string', format: 'ulid' }, b: { not: { type: 'string' } } },
      patternProperties: { '^x': { type: 'string' } },
    });
    expect(lossy.map((change) => [change.path, change.kind])).toEqual([
      ['/patternProperties', 'removed-keyword'],
      ['/properties/a/format', 'removed-keyword'],
      ['/properties/b/not', 'removed-keyword'],
    ]);
    const tree = toZodSchema(recursiveTree);
    expect(tree.lossy.map((change) => change.kind)).toEqual(['cycle-cut']);
    expect(accepts(tree.result, { root: { name: 'a', children: [{ name: 'b', children: [] }] } })).toBe(true);
    expect(accepts(tree.result, { root: { name: '' } })).toBe(false);
  });
});

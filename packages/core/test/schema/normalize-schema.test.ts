import { describe, expect, it } from 'vitest';
import { normalizeSchema } from '../../src/index.js';
import { hugeSchema, mutualRecursion, recursiveTree } from '../fixtures/hard-schemas.js';

describe('normalizeSchema', () => {
  it('inlines $defs references and drops the definitions', () => {
    const { result, lossy } = normalizeSchema({
      type: 'object',
      properties: { address: { $ref: '#/$defs/address' } },
      $defs: { address: { type: 'object', properties: { city: { type: 'string' } } } },
    });
    expect(result).toEqual({
      type: 'object',
      properties: { address: { type: 'object', properties: { city: { type: 'string' } } } },
    });
    expect(lossy).toEqual([]);
  });

  it('cuts a $ref cycle after the configured depth and reports where', () => {
    const { result, lossy } = normalizeSchema(recursiveTree, { maxRecursionDepth: 1 });
    const root = (result.properties as Record<string, any>).root;
    expect(root.properties.children.items).toEqual({
      type: 'object',
      description: 'Recursive reference #/$defs/node (not expanded further).',
    });
    expect(lossy).toEqual([
      expect.objectContaining({ kind: 'cycle-cut', path: '/properties/root/properties/children/items' }),
    ]);
  });

  it('terminates on mutual recursion and on references to the root', () => {
    const { lossy } = normalizeSchema(mutualRecursion);
    expect(lossy.length).toBeGreaterThan(0);
    expect(lossy.every((change) => change.kind === 'cycle-cut')).toBe(true);
    expect(lossy.some((change) => change.message.includes('Recursive reference #'))).toBe(true);
  });

  it('merges allOf: properties and required united, types intersected, bounds tightened', () => {
    const { result, lossy } = normalizeSchema({
      allOf: [
        { type: 'object', properties: { a: { type: 'number', minimum: 0 } }, required: ['a'] },
        {
          type: 'object',
          properties: { a: { type: 'integer', minimum: 5 }, b: { type: 'string' } },
          required: ['b'],
        },
      ],
    });
    expect(result).toEqual({
      type: 'object',
      properties: { a: { type: 'integer', minimum: 5 }, b: { type: 'string' } },
      required: ['a', 'b'],
    });
    expect(lossy).toEqual([]);
  });

  it('reports an allOf conflict instead of losing it silently', () => {
    const { lossy } = normalizeSchema({ allOf: [{ type: 'string' }, { type: 'number' }] });
    expect(lossy).toEqual([expect.objectContaining({ kind: 'merge-conflict', path: '/allOf/1/type' })]);
  });

  it('applies keywords next to a $ref together with the target', () => {
    const { result } = normalizeSchema({
      properties: { name: { $ref: '#/$defs/text', description: 'The name', maxLength: 10 } },
      $defs: { text: { type: 'string', minLength: 1 } },
    });
    expect((result.properties as Record<string, unknown>).name).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 10,
      description: 'The name',
    });
  });

  it('reports references it cannot resolve', () => {
    const { result, lossy } = normalizeSchema({
      properties: { remote: { $ref: 'https://example.com/schema.json' }, missing: { $ref: '#/$defs/nope' } },
    });
    expect(result.properties).toEqual({ remote: {}, missing: {} });
    expect(lossy.map((change) => [change.path, change.kind])).toEqual([
      ['/properties/remote', 'unresolved-reference'],
      ['/properties/missing', 'unresolved-reference'],
    ]);
  });

  it('rewrites draft-07 tuples, dependencies and OpenAPI nullable into 2020-12 forms', () => {
    const { result } = normalizeSchema({
      type: 'object',
      properties: {
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
        note: { type: 'string', nullable: true },
      },
      dependencies: { a: ['b'], c: { required: ['d'] } },
    });
    expect(result).toEqual({
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
        note: { type: ['string', 'null'] },
      },
      dependentRequired: { a: ['b'] },
      dependentSchemas: { c: { required: ['d'] } },
    });
  });

  it('decodes escaped JSON pointers', () => {
    const { result, lossy } = normalizeSchema({
      properties: { x: { $ref: '#/$defs/a~1b' }, y: { $ref: '#/$defs/with%20space' } },
      $defs: { 'a/b': { type: 'string' }, 'with space': { type: 'boolean' } },
    });
    expect(result.properties).toEqual({ x: { type: 'string' }, y: { type: 'boolean' } });
    expect(lossy).toEqual([]);
  });

  it('handles a schema with thousands of properties', () => {
    const { result, lossy } = normalizeSchema(hugeSchema());
    expect(Object.keys(result.properties as object)).toHaveLength(301);
    expect(lossy).toEqual([]);
  });
});

describe('normalizeSchema on densely recursive definitions', () => {
  it('stays bounded when many definitions refer to each other', () => {
    const names = Array.from({ length: 10 }, (_, index) => `d${index}`);
    const definitions = Object.fromEntries(
      names.map((name) => [
        name,
        {
          type: 'object',
          properties: Object.fromEntries(names.map((other) => [other, { $ref: `#/$defs/${other}` }])),
        },
      ]),
    );
    const { result, lossy } = normalizeSchema(
      { type: 'object', properties: { start: { $ref: '#/$defs/d0' } }, $defs: definitions },
      { maxInlinedReferences: 500 },
    );
    expect(JSON.stringify(result).length).toBeLessThan(2_000_000);
    expect(lossy.some((change) => change.kind === 'expansion-limit')).toBe(true);
    expect(lossy.every((change) => ['cycle-cut', 'expansion-limit'].includes(change.kind))).toBe(true);
  });
});

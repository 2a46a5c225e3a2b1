import { describe, expect, it } from 'vitest';
import { toFlatParameters } from '../../src/index.js';
import { enumsAndNullables, mutualRecursion } from '../fixtures/hard-schemas.js';

describe('toFlatParameters', () => {
  it('maps each property to {type, required, description} with enum, default, format and nullability', () => {
    const { result, lossy } = toFlatParameters(enumsAndNullables);
    expect(result.unit).toMatchObject({
      type: 'string',
      required: true,
      description: '',
      enum: ['celsius', 'fahrenheit'],
      default: 'celsius',
    });
    expect(result.note).toMatchObject({ type: 'string', required: true, nullable: true });
    expect(result.count).toMatchObject({ type: 'integer', required: false, nullable: true });
    expect(result.version).toMatchObject({ type: 'string', enum: ['v1'] });
    expect(result.when).toMatchObject({ type: 'string', format: 'date-time' });
    expect(result.mixed).toMatchObject({ type: 'string', types: ['string', 'number', 'boolean', 'null'] });
    expect(lossy).toEqual([
      expect.objectContaining({ path: '/properties/mixed', kind: 'union-approximated' }),
    ]);
  });

  it('keeps the full schema of nested parameters, references inlined', () => {
    const { result } = toFlatParameters(mutualRecursion);
    expect(result.person?.type).toBe('object');
    expect(
      (result.person?.schema.properties as Record<string, any> | undefined)?.employer.properties.title,
    ).toEqual({
      type: 'string',
    });
  });

  it('describes array element types and reports root-level keywords it cannot carry', () => {
    const { result, lossy } = toFlatParameters({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' }, description: 'Tags' } },
      patternProperties: { '^x-': { type: 'string' } },
    });
    expect(result.tags).toMatchObject({
      type: 'array',
      items: 'string',
      description: 'Tags',
      required: false,
    });
    expect(lossy).toEqual([expect.objectContaining({ path: '/patternProperties', kind: 'removed-keyword' })]);
  });
});

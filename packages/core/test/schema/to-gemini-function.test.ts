import { describe, expect, it } from 'vitest';
import { checkToolSchema, toGeminiFunction } from '../../src/index.js';
import { enumsAndNullables, recursiveTree, unionsOfObjects } from '../fixtures/hard-schemas.js';

describe('toGeminiFunction', () => {
  it('writes upper-case types, nullable, string enums and drops parameters of argument-less tools', () => {
    const { result, lossy } = toGeminiFunction({
      name: 'enums',
      description: 'Enums',
      inputSchema: enumsAndNullables,
    });
    const properties = result.parameters?.properties as Record<string, any>;
    expect(result.parameters?.type).toBe('OBJECT');
    expect(properties.unit).toEqual({
      type: 'STRING',
      enum: ['celsius', 'fahrenheit'],
      format: 'enum',
      default: 'celsius',
    });
    expect(properties.note).toEqual({ type: 'STRING', nullable: true, maxLength: 20 });
    expect(properties.level).toEqual({ type: 'INTEGER', enum: ['1', '2', '3'] });
    expect(properties.mixed).toEqual({
      type: 'STRING',
      nullable: true,
      enum: ['auto', '0', 'true'],
      format: 'enum',
    });
    expect(properties.email).toEqual({ type: 'STRING', description: 'Format: email.' });
    expect(properties.when).toEqual({ type: 'STRING', format: 'date-time' });
    expect(lossy.map((change) => [change.path, change.kind])).toEqual([
      ['/properties/level/enum', 'enum-stringified'],
      ['/properties/mixed/enum', 'enum-stringified'],
      ['/properties/email/format', 'moved-to-description'],
      ['/properties/website/format', 'moved-to-description'],
    ]);
    expect(checkToolSchema(result.parameters ?? {}, 'gemini')).toEqual([]);
    expect(
      toGeminiFunction({ name: 'ping', inputSchema: { type: 'object', properties: {} } }).result,
    ).toEqual({
      name: 'ping',
      description: '',
    });
  });

  it('keeps anyOf of objects, turns oneOf into anyOf and removes additionalProperties, reporting both', () => {
    const { result, lossy } = toGeminiFunction({ name: 'shapes', inputSchema: unionsOfObjects });
    const shape = (result.parameters?.properties as Record<string, any> | undefined)?.shape;
    expect(shape.anyOf).toHaveLength(2);
    expect(shape.anyOf[0].properties.kind).toEqual({ type: 'STRING', enum: ['circle'], format: 'enum' });
    expect(lossy).toContainEqual(
      expect.objectContaining({ path: '/properties/identifier/oneOf', kind: 'union-approximated' }),
    );
    expect(lossy).toContainEqual(
      expect.objectContaining({
        path: '/properties/shape/anyOf/0/additionalProperties',
        kind: 'removed-keyword',
      }),
    );
    expect(JSON.stringify(result)).not.toContain('additionalProperties');
  });

  it('inlines references (Gemini has no $ref) and cuts cycles', () => {
    const { result, lossy } = toGeminiFunction({ name: 'tree', inputSchema: recursiveTree });
    expect(JSON.stringify(result)).not.toContain('$ref');
    expect(lossy.map((change) => change.kind)).toEqual(['cycle-cut']);
  });
});

import { describe, expect, it } from 'vitest';
import { syntheticTools } from '../bench/synthetic-tools.js';

describe('syntheticTools (the bench’s padding)', () => {
  it('gives 100,000 distinct tools, the same ones on every call', () => {
    const tools = syntheticTools(100_000);
    expect(tools).toHaveLength(100_000);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(100_000);
    const again = syntheticTools(1000);
    expect(again).toEqual(tools.slice(0, 1000));
    expect(syntheticTools(1000, 7)).not.toEqual(again);
  });
});

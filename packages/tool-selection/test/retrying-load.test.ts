import { describe, expect, it } from 'vitest';
import { createRetryingLoad } from '../src/retrying-load.js';

describe('createRetryingLoad', () => {
  it('shares one load between callers, tries again after a failure, and forgets on reset', async () => {
    let calls = 0;
    const load = createRetryingLoad(async () => {
      calls++;
      if (calls === 1) throw new Error('model files missing');
      return calls;
    });
    await expect(load()).rejects.toThrow('model files missing');
    const [first, second] = await Promise.all([load(), load()]);
    expect([first, second, calls]).toEqual([2, 2, 2]);
    expect(await load()).toBe(2);
    load.reset();
    expect(await load()).toBe(3);
  });
});

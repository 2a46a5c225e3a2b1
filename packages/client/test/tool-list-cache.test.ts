// A list_changed that comes while a list is being fetched: the answer under way may predate the
// change (the notification is handled a few promise hops after it is read, so one read right after
// the list's answer still finds the fetch under way). The cache fetches again once that fetch is in.
import type { Tool } from '@modelcontextprotocol/client';
import { SwitchboardError, silentLogger } from '@switchboard/core';
import { createEventLog } from '@switchboard/test-helpers';
import { describe, expect, it, vi } from 'vitest';
import { ToolListCache } from '../src/tool-list-cache.js';

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });

function cacheOver(lists: Tool[][], ttlMs = 60_000) {
  const pending: Array<(tools: Tool[]) => void> = [];
  let fetched = 0;
  const cache = new ToolListCache({
    server: 'fixture',
    hasTools: true,
    mirrorHeaders: false,
    fetchPage: () =>
      new Promise((resolve) => {
        const answer = lists[Math.min(fetched, lists.length - 1)] as Tool[];
        fetched++;
        pending.push(() => resolve({ tools: answer, ttlMs }));
      }),
    explain: (error) => new SwitchboardError({ code: 'TRANSPORT_ERROR', message: String(error) }),
    logger: silentLogger,
    debounceMs: 1,
  });
  return { cache, answerNext: () => pending.shift()?.([]), fetches: () => fetched };
}

describe('ToolListCache', () => {
  it('a list_changed during a fetch is followed by a second fetch, whose list the listeners get', async () => {
    const { cache, answerNext, fetches } = cacheOver([[tool('add')], [tool('sum')]]);
    const heard = createEventLog<string[]>('refreshed lists');
    cache.onChanged((tools) => heard.push(tools.map((entry) => entry.name)));
    const first = cache.list();
    cache.changed();
    answerNext();
    expect((await first).map((entry) => entry.name)).toEqual(['add']);
    await expect.poll(fetches).toBe(2);
    answerNext();
    expect(await heard.find(() => true)).toEqual(['sum']);
    // The answer's ttlMs does not keep the stale list fresh: the refresh fetched despite it.
    expect((await cache.list()).map((entry) => entry.name)).toEqual(['sum']);
  });

  it('a re-listing keeps the objects of unchanged tools (in any order) and takes a changed one as listed', async () => {
    const add = { ...tool('add'), _meta: { trace: 1 } };
    const sub = tool('sub');
    const { cache, answerNext } = cacheOver(
      [[add, sub], structuredClone([sub, { ...add, _meta: { trace: 2 } }]), structuredClone([add, sub])],
      0,
    );
    const first = cache.list();
    answerNext();
    const [listedAdd, listedSub] = await first;
    const second = cache.list(true);
    answerNext();
    const [againSub, changedAdd] = await second;
    expect(againSub).toBe(listedSub);
    // Any field counts, _meta included: a changed tool is never swapped for the one seen before.
    expect(changedAdd).not.toBe(listedAdd);
    expect(changedAdd?._meta).toEqual({ trace: 2 });
    const third = cache.list(true);
    answerNext();
    const [thirdAdd, thirdSub] = await third;
    expect(thirdAdd).not.toBe(changedAdd);
    expect(thirdAdd?._meta).toEqual({ trace: 1 });
    expect(thirdSub).toBe(listedSub);
  });

  it('without a change during the fetch, the list is fetched once and kept for its ttlMs', async () => {
    const { cache, answerNext, fetches } = cacheOver([[tool('add')]]);
    const first = cache.list();
    answerNext();
    await first;
    await cache.list(true);
    expect(fetches()).toBe(1);
  });

  it('a closed cache does not fetch again after a fetch that saw a change', async () => {
    vi.useFakeTimers();
    try {
      const { cache, answerNext, fetches } = cacheOver([[tool('add')], [tool('sum')]]);
      const first = cache.list();
      cache.changed();
      cache.close();
      answerNext();
      await first;
      // Past the quiet period, on the fake clock: no refresh was scheduled.
      await vi.advanceTimersByTimeAsync(1_000);
      expect(fetches()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureText, listFixtureTools } from '../scripts/dump-fixtures.js';

describe('scripts/dump-fixtures', () => {
  it('lists the tools of the three official servers exactly as the committed fixtures hold them', async () => {
    const dumps = await listFixtureTools();
    expect(dumps.map((dump) => [dump.server, dump.tools.length])).toEqual([
      ['server-everything', 13],
      ['server-filesystem', 14],
      ['server-memory', 9],
    ]);
    for (const dump of dumps) {
      const committed = readFileSync(new URL(`./fixtures/${dump.server}.json`, import.meta.url), 'utf8');
      // When a server upgrade changes its tools, rerun `node --import tsx scripts/dump-fixtures.ts`.
      expect(fixtureText(dump), `${dump.server}.json is stale`).toBe(committed);
    }
  });
});

/**
 * The guard over this repository: every package's source imports keep the graph docs/architecture.md
 * writes down, and no package has an import loop beyond the known ones (known-loops.ts, which only
 * shrinks). A failure lists each broken rule as `file:line rule: message`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayering, formatFinding } from '../src/check-layering.js';
import { knownLoops } from '../src/known-loops.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('the layering of this repository', () => {
  it('keeps the graph of docs/architecture.md, with no import loop but the known ones', () => {
    const findings = checkLayering({ root, knownLoops, knownLoopsFile: 'tests/layering/src/known-loops.ts' });
    expect(findings.map(formatFinding)).toEqual([]);
  });

  it('says for every known loop why it is still there', () => {
    for (const loop of knownLoops) expect(loop.why.length).toBeGreaterThan(40);
  });
});

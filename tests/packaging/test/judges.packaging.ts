// Each tarball as packed: publint and attw find nothing, and the release hygiene holds (licence,
// metadata, engines, exports targets, source maps, README's Node versions).
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { currentRun } from '../src/current-run.js';
import { mapWithLimit } from '../src/map-with-limit.js';
import { packageEntries } from '../src/package-entries.js';
import {
  exportsProblems,
  licenseProblems,
  metadataProblems,
  readmeProblems,
  sourceMapProblems,
  staleModuleProblems,
} from '../src/package-hygiene.js';
import { slug } from '../src/packaging-run.js';
import { peerEntries } from '../src/peer-entries.js';
import { attwProblems, publintMessages, unpackTarball } from '../src/tarball-judges.js';

const run = currentRun();
/** attw on each tarball, three at a time (each one a TypeScript program of its own). */
let attw: Map<string, Awaited<ReturnType<typeof attwProblems>>> = new Map();

beforeAll(async () => {
  const results = await mapWithLimit(run.packed, 3, attwProblems);
  attw = new Map(
    run.packed.map((packed, index) => [packed.name, results[index] as (typeof results)[number]]),
  );
});

test('every publishable package was packed', () => {
  expect(run.packed.length).toBeGreaterThan(0);
});

describe.each(run.packed.map((packed) => [packed.name, packed] as const))('%s', (_name, packed) => {
  let packageDir = '';
  beforeAll(async () => {
    packageDir = await unpackTarball(packed, join(run.runDir, 'unpacked', slug(packed.name)));
  });

  test('publint reports nothing', async () => {
    expect(await publintMessages(packageDir)).toEqual([]);
  });

  test('attw reports nothing', () => {
    const result = attw.get(packed.name);
    expect(result?.problems, `run: ${result?.command}`).toEqual([]);
  });

  test('the tarball carries the MIT LICENSE', () => {
    expect(licenseProblems(packed, packageDir)).toEqual([]);
  });

  test('repository, homepage, bugs, keywords and engines are set; no workspace: range is left', () => {
    expect(metadataProblems(packed)).toEqual([]);
  });

  test('every exports target is in the tarball', () => {
    expect(exportsProblems(packed)).toEqual([]);
  });

  test('source maps ship their sources, or there are none', () => {
    expect(sourceMapProblems(packed, packageDir)).toEqual([]);
  });

  test('every compiled module has its source (nothing stale from an earlier build)', () => {
    expect(staleModuleProblems(packed)).toEqual([]);
  });

  test('its README says which Node versions it supports', () => {
    expect(readmeProblems(packageDir)).toEqual([]);
  });

  test('its peer-bound entries name optional peers of the package', () => {
    const optional = Object.entries(packed.manifest.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta.optional === true)
      .map(([peer]) => peer);
    for (const entry of packageEntries(packed.manifest, packed.files)) {
      for (const peer of peerEntries[entry.specifier] ?? []) expect(optional).toContain(peer);
    }
  });
});

// Every entry of every package (the root and each subpath of its exports map) loads from the
// install with `require()` and with `import`, on each Node, and both give the same module. An entry
// that exists for an optional peer (src/peer-entries.ts) may fail only for want of that peer.
import { beforeAll, describe, expect, test } from 'vitest';
import { currentRun } from '../src/current-run.js';
import { type EntryProbe, type EntryProbes, probeEntries } from '../src/entry-probes.js';
import type { InstalledProject } from '../src/install-project.js';
import { mapWithLimit } from '../src/map-with-limit.js';
import { packageEntries } from '../src/package-entries.js';
import { isPeerModule, missingPackageOf, peerEntries } from '../src/peer-entries.js';

const run = currentRun();
const entriesOf = (install: InstalledProject) => {
  const packed = run.packed.find((item) => item.name === install.target);
  return packed ? packageEntries(packed.manifest, packed.files) : [];
};
/** Each install's probes, three installs at a time (each probe is a Node process loading every entry). */
const allProbes = new Map<InstalledProject, EntryProbes>();

beforeAll(async () => {
  const installed = run.installs.filter((install) => install.ok);
  const probes = await mapWithLimit(installed, 3, (install) => probeEntries(install, entriesOf(install)));
  installed.forEach((install, index) => {
    allProbes.set(install, probes[index] as EntryProbes);
  });
});

/** A probe that loaded, or failed for want of the entry's own peer (undefined); else what went wrong. */
function loadFailure(specifier: string, probe: EntryProbe | undefined): string | undefined {
  if (!probe) return 'not probed';
  if (probe.error === undefined) return probe.exportNames?.length ? undefined : 'it exports nothing';
  const missing = missingPackageOf(probe.error);
  const peers = peerEntries[specifier] ?? [];
  return missing !== undefined && isPeerModule(missing, peers) ? undefined : probe.error;
}

describe.each(
  run.installs.map((install) => [`${install.target} on ${install.runtime.label}`, install] as const),
)('%s', (_title, install) => {
  const entries = entriesOf(install);
  const probes = () => allProbes.get(install);

  test('has entries in its exports map', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  test.each(entries.map((entry) => entry.specifier))('require(%j)', (specifier) => {
    expect(install.ok, 'not installed').toBe(true);
    const probe = probes()?.required.find((item) => item.specifier === specifier);
    expect(loadFailure(specifier, probe), `require('${specifier}') failed`).toBeUndefined();
  });

  test.each(entries.map((entry) => entry.specifier))(
    'import(%j), the same module as require',
    (specifier) => {
      expect(install.ok, 'not installed').toBe(true);
      const imported = probes()?.imported.find((item) => item.specifier === specifier);
      expect(loadFailure(specifier, imported), `import('${specifier}') failed`).toBeUndefined();
      if (imported?.error !== undefined) return; // its peer is not installed: nothing to compare
      const required = probes()?.required.find((item) => item.specifier === specifier);
      expect(imported?.exportNames).toEqual(required?.exportNames);
      expect(probes()?.sameModule[specifier], 'require() gave another copy of the module than import').toBe(
        true,
      );
    },
  );

  test('loading prints no warning', () => {
    expect(install.ok, 'not installed').toBe(true);
    expect(probes()?.stderr).toBe('');
  });
});

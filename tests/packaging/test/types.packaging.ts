// A strict TypeScript consumer (skipLibCheck false, nodenext, as ES module and as CommonJS, no
// optional peer installed) of every public entry compiles against the installed declarations.
// Types do not depend on the Node version, so this runs once, on the first runtime's installs: the
// libraries' entries together in one project that has them all (one program checks the shared
// declarations — the SDK's, zod's — once), and each command-line package's in its global install.
// An entry that exists for an optional peer (src/peer-entries.ts) may miss that peer, in its own
// folder of declarations only.
import { expect, test } from 'vitest';
import {
  missingModuleOf,
  type TscError,
  type TypecheckResult,
  typecheckConsumer,
} from '../src/consumer-typecheck.js';
import { currentRun } from '../src/current-run.js';
import type { InstalledProject } from '../src/install-project.js';
import { type PackageEntry, packageEntries } from '../src/package-entries.js';
import { isPeerModule, peerEntries } from '../src/peer-entries.js';

const run = currentRun();
const firstRuntime = run.runtimes[0]?.label;

/** The declaration folder an entry owns: its types file's folder, or the file itself when it sits at the top of dist/. */
function ownDeclarations(entry: PackageEntry): string {
  const types = (entry.types ?? '').replace(/^\.\//, '');
  const folder = types.slice(0, types.lastIndexOf('/') + 1);
  const name = entry.specifier.split('/').slice(0, 2).join('/');
  return /^dist\/?$/.test(folder) || folder === ''
    ? `node_modules/${name}/${types}`
    : `node_modules/${name}/${folder}`;
}

/** An error that a peer-bound entry is allowed: its peer missing, inside its own declarations. */
function allowedForPeer(error: TscError, entries: readonly PackageEntry[]): boolean {
  const missing = missingModuleOf(error);
  if (missing === undefined) return false;
  return entries.some((entry) => {
    const peers = peerEntries[entry.specifier];
    return peers !== undefined && isPeerModule(missing, peers) && error.file.includes(ownDeclarations(entry));
  });
}

function expectClean(result: TypecheckResult, entries: readonly PackageEntry[]): void {
  const unexpected = result.errors.filter((error) => !allowedForPeer(error, entries));
  expect(
    unexpected.map((error) => `${error.file}: ${error.code} ${error.message}`),
    `tsc failed (an optional peer's types must not reach a declaration outside the entry that exists for that peer — see src/peer-entries.ts; a dependency's types must come with the package):\n${result.output}`,
  ).toEqual([]);
  if (unexpected.length === 0 && result.errors.length === 0) expect(result.exitCode).toBe(0);
}

function entriesOf(names: readonly string[]): PackageEntry[] {
  return run.packed
    .filter((packed) => names.includes(packed.name))
    .flatMap((packed) => packageEntries(packed.manifest, packed.files));
}

const project = run.typesProject;
const libraryEntries = entriesOf(project?.packages ?? []);
const globalInstalls = run.installs.filter(
  (install) => install.global && install.runtime.label === firstRuntime,
);

// The two programs side by side (tsc is one process each).
test.concurrent(`the ${libraryEntries.length} entries of ${project?.packages.join(', ')}, in one project, compile as ES module and CommonJS consumers`, async () => {
  expect(project?.install.ok, `the types project did not install:\n${project?.install.failure}`).toBe(true);
  expectClean(
    await typecheckConsumer(project?.install as InstalledProject, libraryEntries, 'consumer-types'),
    libraryEntries,
  );
});

test.concurrent.each(globalInstalls.map((install) => [install.target, install] as const))(
  '%s (installed globally) compiles as ES module and CommonJS consumers',
  async (name, install) => {
    expect(install.ok, 'not installed').toBe(true);
    const entries = entriesOf([name]);
    expectClean(await typecheckConsumer(install, entries, 'consumer-types'), entries);
  },
);

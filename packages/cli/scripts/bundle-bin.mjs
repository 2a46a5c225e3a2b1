/**
 * Run after `tsc` by `pnpm build`: replaces dist/bin.js (the `switchboard` executable) with one
 * esbuild bundle of the CLI, @switchboard/core, transports and client's root entry, and the SDK and
 * zod they use. Why: Node 20's ES module loader pays ~0.6 ms for each file it resolves, links and
 * reads, and `switchboard tools` loaded ~290 of them before it spawned its server (the SDK script
 * it is measured against, ~130). Commands still load at their first run: each lazy `import()` is a
 * chunk under dist/chunks/, so `--help` reads the entry and the command table only.
 *
 * What stays a real import, resolved from this package at run time: what loads only on some paths
 * (the server, the gateway, the inspector (whose page files sit beside its own dist/) and tool
 * selection, the stores, OAuth, OpenTelemetry, the schema compiler and the
 * parsers that `createRequire` loads), so that test/startup-modules.test.ts still sees each one
 * load, or not. Every such import must be a dependency of this package (pnpm's strict layout gives
 * a package only what it declares): the build fails otherwise, naming it.
 *
 * dist/index.js (the programmatic API, `runCli` and `commands`) stays tsc's output, and the bin's
 * path stays dist/bin.js: host configs written by `servers install-gateway` point at it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Loaded on some paths only, or native: kept as imports (see above). */
const external = [
  '@switchboard/gateway',
  '@switchboard/inspector',
  '@switchboard/server',
  '@switchboard/server/*',
  '@switchboard/tool-selection',
  // The PostgreSQL store's subpath, not `@switchboard/client/*`: `config-documents` (what
  // host-config edits with) is the client's own code, bundled once with its root entry. The SQLite
  // store is bundled (a chunk of its own, sharing core): `tools` and `call` open it before their
  // answer, since the tool pins it holds decide which tools may be listed and called.
  '@switchboard/client/postgres-store',
  'jose',
  '@opentelemetry/api',
  'better-sqlite3',
  'pg',
  'ioredis',
];
/** Loaded with `createRequire` by core and client, which esbuild cannot see: resolved from here. */
const requiredAtRunTime = ['ajv', 'ajv-formats', 'yaml', 'smol-toml', 'diff'];

/** ws's optional native speed-ups: it `require`s them in a try and runs without them. */
const optionalOfBundled = new Set(['bufferutil', 'utf-8-validate']);

const declared = new Set(
  ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap((field) =>
    Object.keys(manifest[field] ?? {}),
  ),
);
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const undeclared = [...external, ...requiredAtRunTime].map(packageOf).filter((name) => !declared.has(name));
if (undeclared.length > 0) {
  throw new Error(
    `bundle-bin: ${undeclared.join(', ')} stay imports of dist/bin.js but are not dependencies in packages/cli/package.json: add them (same versions as the package that uses them).`,
  );
}

// Chunks of an earlier build would linger (their names carry content hashes).
rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  // From the sources, so that running this twice (or without tsc before it) gives the same bundle.
  entryPoints: { bin: 'src/bin.ts' },
  tsconfig: 'tsconfig.build.json',
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // CommonJS inside the bundle (the SDK's dependencies) calls `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __sbCreateRequire } from 'node:module';\nconst require = __sbCreateRequire(import.meta.url);",
  },
  sourcemap: false,
  allowOverwrite: true,
  metafile: true,
  logLevel: 'warning',
});

// Any other bare import left in the output would fail at run time under pnpm: refuse it here.
const builtins = new Set(builtinModules);
const left = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const imported of output.imports) {
    if (!imported.external || imported.path.startsWith('node:') || builtins.has(imported.path)) continue;
    const name = packageOf(imported.path);
    if (!declared.has(name) && !optionalOfBundled.has(name)) left.add(imported.path);
  }
}
if (left.size > 0) {
  throw new Error(
    `bundle-bin: dist/bin.js imports ${[...left].join(', ')}, not dependencies of packages/cli: declare them or bundle them.`,
  );
}

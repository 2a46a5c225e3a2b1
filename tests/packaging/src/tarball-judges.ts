/**
 * The ecosystem's packaging judges, run on each tarball as packed: publint (what the package.json
 * promises against what the tarball holds) and Are The Types Wrong (how each TypeScript module
 * resolution reads the types).
 *
 * Two of attw's findings are wrong for these packages, and are left out, here and on its command
 * line alike:
 * - `node10` resolution: TypeScript's legacy `moduleResolution: node10` ignores `exports`, so it
 *   finds no subpath. It is deprecated (TypeScript 6 drops it); the READMEs ask for `nodenext`
 *   (or `bundler`), and the root entry still resolves through `main`/`types`.
 * - `CJSResolvesToESM` ("ESM (dynamic import only)" from CommonJS): the packages are ES modules
 *   loaded from CommonJS by `require(esm)`, which every Node their `engines` allow supports
 *   (^20.19.0 || >=22.12.0), as TypeScript ≥ 5.8 does with `module: nodenext` (or `node20`); attw
 *   does not know of require(esm) yet (arethetypeswrong issue #252). The suite proves it instead:
 *   every entry is required on each Node, and type-checked from a `.cts` consumer.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import type { PackedPackage } from './pack-packages.js';
import { describeFailure, runCommand, succeeded } from './run-command.js';

const require = createRequire(import.meta.url);

/** attw's `--ignore-rules` and `--profile` for these packages (see above). */
export const attwArguments = ['--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm'];

/** Unpacks a tarball into `dir` (its files land in `dir/package`); returns that folder. */
export async function unpackTarball(packed: PackedPackage, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const result = await runCommand('tar', ['-xzf', packed.tarball, '-C', dir], { cwd: dir, env: process.env });
  if (!succeeded(result)) throw new Error(describeFailure(result));
  return join(dir, 'package');
}

/** publint's messages (suggestions included) for an unpacked package, as publint words them. */
export async function publintMessages(packageDir: string): Promise<string[]> {
  const { messages, pkg } = await publint({ pkgDir: packageDir, level: 'suggestion', pack: false });
  return messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
}

/** One problem attw found. */
export interface AttwProblem {
  kind: string;
  entrypoint?: string;
  resolutionKind?: string;
}

/** attw's problems for a tarball, less the two it gets wrong for these packages. */
export async function attwProblems(
  packed: PackedPackage,
): Promise<{ problems: AttwProblem[]; command: string }> {
  const cli = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js');
  const result = await runCommand(
    process.execPath,
    [cli, packed.tarball, '--format', 'json', ...attwArguments],
    {
      cwd: dirname(packed.tarball),
      env: { ...process.env, NO_COLOR: '1' },
      timeoutMs: 180_000,
    },
  );
  let parsed: { analysis?: { problems?: AttwProblem[] } };
  try {
    parsed = JSON.parse(result.stdout) as typeof parsed;
  } catch {
    throw new Error(`attw printed no JSON: ${describeFailure(result)}`);
  }
  const problems = (parsed.analysis?.problems ?? []).filter(
    (problem) => problem.resolutionKind !== 'node10' && problem.kind !== 'CJSResolvesToESM',
  );
  return { problems, command: result.command };
}

/**
 * A strict TypeScript consumer of an installed package: `strict`, `skipLibCheck: false`,
 * `module`/`moduleResolution` `nodenext`, no DOM lib and `@types/node` only, compiled with the
 * workspace's TypeScript (no download). It imports every entry twice — from an ES module (`.mts`,
 * `import * as`) and from a CommonJS one (`.cts`, `import = require`) — so the declarations are
 * read as both kinds of consumer resolve them, and every declaration file they reach is checked.
 * No optional peer is installed: types that need one fail here, as they would for a user.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { InstalledProject } from './install-project.js';
import type { PackageEntry } from './package-entries.js';
import { workspaceRoot } from './publishable-packages.js';
import { runCommand } from './run-command.js';

const require = createRequire(import.meta.url);

/** One error tsc reported. */
export interface TscError {
  /** As tsc prints it (relative to the consumer's folder). */
  file: string;
  /** `TS2307`. */
  code: string;
  message: string;
}

/** What compiling the consumer gave. */
export interface TypecheckResult {
  errors: TscError[];
  /** tsc's output, for a failure message. */
  output: string;
  exitCode: number | null;
}

/** tsc's `file(line,col): error TSnnnn: message` lines, with their indented continuation lines. */
export function parseTscOutput(output: string): TscError[] {
  const errors: TscError[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\(\d+,\d+\): error (TS\d+): (.*)$/.exec(line);
    if (match)
      errors.push({ file: match[1] as string, code: match[2] as string, message: match[3] as string });
    else if (/^\s/.test(line) && errors.length > 0) (errors.at(-1) as TscError).message += `\n${line.trim()}`;
  }
  return errors;
}

/** The module a "Cannot find module 'x'" (TS2307) or "Could not find a declaration file for module 'x'" (TS7016) error names. */
export function missingModuleOf(error: TscError): string | undefined {
  if (error.code !== 'TS2307' && error.code !== 'TS7016') return undefined;
  return /module '([^']+)'/.exec(error.message)?.[1];
}

/** The consumer's tsconfig: a Node project with nothing but `@types/node` (the workspace's, when the install has none). */
function consumerTsconfig(files: string[]): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        // TypeScript's own lib.*.d.ts: not what is judged here (every declaration in node_modules is).
        skipDefaultLibCheck: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023'],
        noEmit: true,
        types: ['node'],
        typeRoots: ['../node_modules/@types', join(workspaceRoot, 'node_modules', '@types')],
      },
      files,
    },
    null,
    2,
  )}\n`;
}

/** Compiles a consumer of `entries` in `<install root>/<folder>`. */
export async function typecheckConsumer(
  project: InstalledProject,
  entries: readonly PackageEntry[],
  folder: string,
): Promise<TypecheckResult> {
  const dir = join(project.root, folder);
  mkdirSync(dir, { recursive: true });
  const esm = entries.map((entry, index) => `import * as entry${index} from '${entry.specifier}';`);
  const cjs = entries.map((entry, index) => `import entry${index} = require('${entry.specifier}');`);
  const list = `export const entries = [${entries.map((_, index) => `entry${index}`).join(', ')}] as const;\n`;
  writeFileSync(join(dir, 'consumer.mts'), `${esm.join('\n')}\n${list}`);
  writeFileSync(join(dir, 'consumer.cts'), `${cjs.join('\n')}\n${list}`);
  writeFileSync(join(dir, 'tsconfig.json'), consumerTsconfig(['consumer.mts', 'consumer.cts']));
  const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const result = await runCommand(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], {
    cwd: dir,
    env: process.env,
    timeoutMs: 300_000,
  });
  const output = `${result.stdout}${result.stderr}`;
  return { errors: parseTscOutput(output), output, exitCode: result.code };
}

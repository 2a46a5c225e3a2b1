// The strict consumer fails on what a user's strict project would: a declaration that names a
// package that is not installed (an optional peer), or one with a type error of its own.
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { missingModuleOf, parseTscOutput, typecheckConsumer } from '../src/consumer-typecheck.js';
import { packageEntries } from '../src/package-entries.js';
import { fakeInstall, manifest } from './fake-install.js';

const directories = createTemporaryDirectories();
afterEach(() => directories.removeAll());

const typed = (name: string, declarations: string) => ({
  'package.json': manifest(name, { '.': { types: './index.d.ts', default: './index.js' } }),
  'index.js': 'export const value = 1;',
  'index.d.ts': declarations,
});

describe('typecheckConsumer', () => {
  it('compiles a clean package as ES module and CommonJS consumer, and reports a leak and a type error', async () => {
    const packages = {
      clean: typed('clean', 'export declare const value: number;\n'),
      leaky: typed(
        'leaky',
        "import type { Tracer } from 'absent-peer';\nexport declare const value: Tracer;\n",
      ),
      wrong: typed('wrong', 'export declare const value: number = "text";\n'),
    };
    const project = fakeInstall(directories.make('consumer-'), packages);
    const entriesOf = (name: keyof typeof packages) =>
      packageEntries(JSON.parse(packages[name]['package.json'] as string));

    const [clean, leaky, wrong] = await Promise.all([
      typecheckConsumer(project, entriesOf('clean'), 'clean-consumer'),
      typecheckConsumer(project, entriesOf('leaky'), 'leaky-consumer'),
      typecheckConsumer(project, entriesOf('wrong'), 'wrong-consumer'),
    ]);
    expect(clean.errors, clean.output).toEqual([]);
    expect(clean.exitCode).toBe(0);
    expect(leaky.errors.map(missingModuleOf)).toEqual(['absent-peer']);
    expect(wrong.errors.length).toBeGreaterThan(0);
    expect(wrong.exitCode).not.toBe(0);
  }, 120_000);

  it('parses tsc lines with their continuation lines', () => {
    expect(
      parseTscOutput(
        "a.d.ts(8,28): error TS7016: Could not find a declaration file for module 'ws'.\n  Try `npm i --save-dev @types/ws`\n",
      ),
    ).toEqual([
      {
        file: 'a.d.ts',
        code: 'TS7016',
        message: "Could not find a declaration file for module 'ws'.\nTry `npm i --save-dev @types/ws`",
      },
    ]);
  });
});

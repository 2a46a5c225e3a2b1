// The release, dry: `changeset publish` (done by the global setup) put every package on the run's
// local registry; `npm i @switchboard/client` by name from there pulls core and transports and
// connects to an official server; `changeset version` on a copy gives each package its first 0.x
// release with a CHANGELOG; .changeset/config.json versions the packages independently.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverScript } from '@switchboard/test-helpers';
import { describe, expect, test } from 'vitest';
import { changesetVersionOnCopy } from '../src/changeset-version.js';
import { currentRun } from '../src/current-run.js';
import { installedPackageDir, installProject } from '../src/install-project.js';
import { publishablePackages, workspaceRoot } from '../src/publishable-packages.js';
import { describeFailure, runCommand, succeeded } from '../src/run-command.js';

const run = currentRun();
const runtime = run.runtimes[0];

describe('changeset publish to a local registry', () => {
  test('publishes every package', () => {
    expect(run.publish.failure ?? '', 'changeset publish failed').toBe('');
    expect(run.publish.published.sort()).toEqual(
      run.packed.map((packed) => `${packed.name}@${packed.version}`).sort(),
    );
  });

  test.each(run.packed.map((packed) => [packed.name, packed.version] as const))(
    '%s is on the registry at its version',
    async (name, version) => {
      const response = await fetch(new URL(name.replace('/', '%2f'), run.registry.url));
      expect(response.status).toBe(200);
      const document = (await response.json()) as { versions?: Record<string, unknown> };
      expect(Object.keys(document.versions ?? {})).toContain(version);
    },
  );

  test('npm i @switchboard/client by name pulls core and transports and connects over stdio', async () => {
    const client = run.packed.find((packed) => packed.name === '@switchboard/client');
    expect(client, '@switchboard/client was not packed').toBeDefined();
    if (!client || !runtime) return;
    const install = await installProject({
      runtime,
      target: client,
      source: { registry: run.registry.url },
      workDir: join(run.runDir, 'release', 'client-by-name'),
    });
    expect(install.ok, `npm i @switchboard/client failed:\n${install.failure}`).toBe(true);
    for (const name of ['@switchboard/core', '@switchboard/transports']) {
      const installed = JSON.parse(
        readFileSync(join(installedPackageDir(install, name), 'package.json'), 'utf8'),
      );
      expect(installed.version).toBe(run.packed.find((packed) => packed.name === name)?.version);
    }
    const script = join(install.root, 'connect.mjs');
    writeFileSync(
      script,
      [
        "import { connectMcp } from '@switchboard/client';",
        `const mcp = await connectMcp({ everything: { command: ${JSON.stringify(runtime.node)}, args: [${JSON.stringify(serverScript('server-everything'))}, 'stdio'] } });`,
        "console.log(JSON.stringify(await mcp.callTool('mcp__everything__echo', { message: 'installed by name' })));",
        'await mcp.close();',
      ].join('\n'),
    );
    const connected = await runCommand(runtime.node, [script], {
      cwd: install.root,
      env: runtime.env,
      timeoutMs: 60_000,
    });
    expect(succeeded(connected), describeFailure(connected)).toBe(true);
    expect(JSON.parse(connected.stdout.trim().split('\n').pop() as string)).toMatchObject({
      status: 'success',
      message: 'Echo: installed by name',
    });
  });
});

describe('changeset version (on a copy)', async () => {
  const { result, packages } = await changesetVersionOnCopy(join(run.runDir, 'version-copy'));
  const publishable = new Set(publishablePackages().map((pkg) => pkg.name));

  test('runs', () => {
    expect(succeeded(result), describeFailure(result)).toBe(true);
  });

  test.each(packages.filter((pkg) => publishable.has(pkg.name)).map((pkg) => [pkg.name, pkg] as const))(
    '%s gets a release with a CHANGELOG',
    (_name, pkg) => {
      expect(pkg.versionAfter, 'no pending changeset names this package').not.toBe(pkg.versionBefore);
      if (pkg.versionBefore === '0.0.0') {
        expect(
          pkg.versionAfter,
          'its first release must be 0.x: a "major" changeset before 1.0 is a "minor"',
        ).toMatch(/^0\.\d+\.\d+$/);
      }
      expect(pkg.changelog).toContain(`## ${pkg.versionAfter}`);
    },
  );
});

describe('.changeset/config.json', () => {
  const config = JSON.parse(readFileSync(join(workspaceRoot, '.changeset', 'config.json'), 'utf8'));
  const workspaceNames = new Set<string>();

  test('versions the packages independently and publishes them public', () => {
    expect(config.fixed).toEqual([]);
    expect(config.linked).toEqual([]);
    expect(config.access).toBe('public');
    expect(config.baseBranch).toBe('main');
  });

  test('ignores no publishable package', () => {
    for (const pkg of publishablePackages()) workspaceNames.add(pkg.name);
    expect((config.ignore as string[]).filter((name) => workspaceNames.has(name))).toEqual([]);
  });
});

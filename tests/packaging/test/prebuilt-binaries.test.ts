// The stand-in for GitHub's prebuilt downloads serves the workspace's better-sqlite3 binary for this
// Node at the path prebuild-install asks for, as the archive it expects.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterEach, expect, it } from 'vitest';
import type { NodeRuntime } from '../src/node-runtimes.js';
import { startPrebuiltMirror } from '../src/prebuilt-binaries.js';

const directories = createTemporaryDirectories();
afterEach(() => directories.removeAll());

it('serves better-sqlite3 for this Node as build/Release/better_sqlite3.node in a .tar.gz', async () => {
  const runtime: NodeRuntime = {
    label: `Node ${process.versions.node}`,
    major: Number(process.versions.node.split('.')[0]),
    node: process.execPath,
    npmCli: '',
    env: { PATH: process.env.PATH ?? '' },
  };
  await using mirror = await startPrebuiltMirror([runtime], directories.make('prebuilt-'));
  expect(mirror.served).toEqual([
    expect.stringMatching(/^better-sqlite3 [\d.]+ for Node [\d.]+ \(ABI \d+\)$/),
  ]);
  const host = mirror.env.npm_config_better_sqlite3_binary_host as string;
  const version = /better-sqlite3 ([\d.]+)/.exec(mirror.served[0] as string)?.[1];
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const response = await fetch(`${host}/v${version}/${name}`);
  expect(response.status).toBe(200);
  const archive = join(directories.make('asset-'), name);
  writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
  expect(execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' })).toContain(
    'build/Release/better_sqlite3.node',
  );
  expect((await fetch(`${host}/v${version}/other.tar.gz`)).status).toBe(404);
});

/**
 * `switchboard serve --select --store postgres://…`: replicas starting on one database share the
 * tool index's embeddings, so a replica started after another embeds nothing that is unchanged (warm
 * start), and both record their calls in the one database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { everythingStdio } from '@switchboard/test-helpers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = join(import.meta.dirname, '..', 'dist', 'bin.js');
const postgresUrl =
  process.env.SWITCHBOARD_TEST_POSTGRES_URL ??
  'postgres://switchboard:switchboard@127.0.0.1:5432/switchboard';
const schema = `cli_${randomBytes(4).toString('hex')}`;
const storeUrl = `${postgresUrl}?schema=${schema}`;
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');

beforeAll(() => {
  mkdirSync(sandbox.home, { recursive: true });
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        everything: everythingStdio(),
      },
    }),
  );
});

afterAll(async () => {
  sandbox.cleanup();
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

/** Starts a replica and resolves with its index line once it serves; stops it again. */
async function startAndStop(id: string): Promise<{ reused: number; computed: number }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--http',
      '--port',
      '0',
      '--select',
      '--store',
      storeUrl,
      '--replica-id',
      id,
      '--config',
      configFile,
    ],
    {
      env: { ...sandbox.env, SWITCHBOARD_LOG: 'silent', SWITCHBOARD_OFFLINE: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  try {
    const line = await new Promise<RegExpExecArray>((resolve, reject) => {
      let seen = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /(\d+) embeddings reused, (\d+) computed[\s\S]*serving/.exec(seen);
        if (match) resolve(match);
      });
      child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${seen}`)));
    });
    expect(line[0]).not.toContain('switchboard:switchboard@');
    return { reused: Number(line[1]), computed: Number(line[2]) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

describe('serve on a shared PostgreSQL store', () => {
  it('a second replica reuses every embedding the first computed (warm start)', async () => {
    const first = await startAndStop('r1');
    expect(first.computed).toBeGreaterThan(0);
    const second = await startAndStop('r2');
    expect(second).toEqual({ reused: first.computed + first.reused, computed: 0 });
  }, 120_000);
});

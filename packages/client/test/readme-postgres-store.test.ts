// The README's PostgreSQL snippet runs as written (server from node_modules, a schema of its own).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropSchemas, postgresUrl, randomSchema } from './helpers/postgres.js';
import { serverScript } from './helpers/servers.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const snippetFile = fileURLToPath(new URL(`./readme-postgres-${process.pid}.tmp.ts`, import.meta.url));
const schema = randomSchema();

afterEach(async () => {
  rmSync(snippetFile, { force: true });
  vi.restoreAllMocks();
  await dropSchemas([schema]);
});

describe('README: Several replicas: PostgreSQL', () => {
  it('connects, calls echo, counts it and hears of the catalogue change', async () => {
    const snippet = /### Several replicas: PostgreSQL\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toBeDefined();
    const runnable = (snippet as string)
      .replace("from '@switchboard/client'", "from '../src/index.js'")
      .replace("from '@switchboard/client/postgres-store'", "from '../src/postgres-store/index.js'")
      .replace(
        'connectionString: process.env.DATABASE_URL,',
        `connectionString: ${JSON.stringify(postgresUrl)}, schema: ${JSON.stringify(schema)},`,
      )
      .replace(
        'encryptionKey: process.env.SWITCHBOARD_STORE_KEY,',
        "encryptionKey: 'a passphrase for the readme test',",
      )
      .replace(
        "command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything']",
        `command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverScript('server-everything'))}, 'stdio']`,
      )
      // Waits for the change to be heard before stopping, as a long-running gateway would.
      .replace(
        'stop();',
        "await new Promise((resolve) => { const wait = () => (lines.some((line) => line.startsWith('catalogue changed:')) ? resolve(undefined) : setTimeout(wait, 20)); wait(); });\nstop();",
      );
    expect(runnable).not.toContain('npx');
    expect(runnable).not.toContain('process.env');
    const lines: string[] = [];
    (globalThis as { lines?: string[] }).lines = lines;
    writeFileSync(snippetFile, `const lines = (globalThis as { lines: string[] }).lines;\n${runnable}`);
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
    await import(/* @vite-ignore */ snippetFile);
    expect(lines).toContain('catalogue changed: everything tools');
    expect(lines.at(-1)).toBe('1');
  });
});

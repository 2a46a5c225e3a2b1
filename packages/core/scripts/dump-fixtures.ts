/**
 * Dumps `tools/list` of the official MCP reference servers into `test/fixtures/*.json`, so that
 * schema conversion is tested on real tool lists. Run: `node --import tsx scripts/dump-fixtures.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const require = createRequire(import.meta.url);
const fixturesDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');

function serverEntry(packageName: string): string {
  return join(dirname(require.resolve(`${packageName}/package.json`)), 'dist', 'index.js');
}

async function dumpTools(name: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'switchboard-fixture-dump', version: '0.0.0' });
  await client.connect(transport);
  try {
    const tools = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    writeFileSync(
      join(fixturesDirectory, `${name}.json`),
      `${JSON.stringify({ server: name, tools }, null, 2)}\n`,
    );
    return tools.length;
  } finally {
    await client.close();
  }
}

const temporaryDirectory = mkdtempSync(join(tmpdir(), 'switchboard-fixtures-'));
try {
  const everything = await dumpTools('server-everything', [
    serverEntry('@modelcontextprotocol/server-everything'),
    'stdio',
  ]);
  // The allowed directory appears only in tool descriptions at runtime, not in the schemas.
  const filesystem = await dumpTools('server-filesystem', [
    serverEntry('@modelcontextprotocol/server-filesystem'),
    temporaryDirectory,
  ]);
  // Kept in the temporary directory, so the dump never writes next to the installed package.
  const memory = await dumpTools('server-memory', [serverEntry('@modelcontextprotocol/server-memory')], {
    MEMORY_FILE_PATH: join(temporaryDirectory, 'memory.jsonl'),
  });
  console.log(
    `server-everything: ${everything} tools, server-filesystem: ${filesystem}, server-memory: ${memory}`,
  );
} finally {
  rmSync(temporaryDirectory, { recursive: true, force: true });
}

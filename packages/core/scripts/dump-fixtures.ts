/**
 * Dumps `tools/list` of the official MCP reference servers into `test/fixtures/*.json`, so that
 * schema conversion is tested on real tool lists. Run: `node --import tsx scripts/dump-fixtures.ts`.
 * `test/dump-fixtures.test.ts` lists the tools again and fails when the committed fixtures are stale.
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

/** One server's dump, as written to `test/fixtures/<server>.json`. */
export interface ToolListDump {
  server: string;
  tools: unknown[];
}

function serverEntry(packageName: string): string {
  return join(dirname(require.resolve(`${packageName}/package.json`)), 'dist', 'index.js');
}

async function listTools(
  server: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ToolListDump> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'switchboard-fixture-dump', version: '0.0.0' });
  await client.connect(transport);
  try {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { server, tools };
  } finally {
    // Closing the client ends the server process.
    await client.close();
  }
}

/** Starts each official server over stdio and returns its `tools/list`. */
export async function listFixtureTools(): Promise<ToolListDump[]> {
  const temporaryDirectory = mkdtempSync(join(tmpdir(), 'switchboard-fixtures-'));
  try {
    return [
      await listTools('server-everything', [serverEntry('@modelcontextprotocol/server-everything'), 'stdio']),
      await listTools('server-filesystem', [
        serverEntry('@modelcontextprotocol/server-filesystem'),
        temporaryDirectory,
      ]),
      // Kept in the temporary directory, so the server never writes next to the installed package.
      await listTools('server-memory', [serverEntry('@modelcontextprotocol/server-memory')], {
        MEMORY_FILE_PATH: join(temporaryDirectory, 'memory.jsonl'),
      }),
    ];
  } finally {
    rmSync(temporaryDirectory, { recursive: true, force: true });
  }
}

/** The text of a fixture file. */
export function fixtureText(dump: ToolListDump): string {
  return `${JSON.stringify(dump, null, 2)}\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const dump of await listFixtureTools()) {
    writeFileSync(join(fixturesDirectory, `${dump.server}.json`), fixtureText(dump));
    console.log(`${dump.server}: ${dump.tools.length} tools`);
  }
}

/**
 * Tool trust end to end through the built `switchboard serve` binary, as a child process, with the
 * official SDK clients of both eras downstream (SDK v1 on a 2025 session, SDK v2 pinned to
 * 2026-07-28). Each attack of the malicious fixture server is caught: the tool is not listed
 * downstream and a call to it is refused with TOOL_QUARANTINED naming the server, the tool and what
 * changed. `switchboard tools approve` — another process of the same binary, writing to the same
 * registry store — then brings it back, and both clients hear `notifications/tools/list_changed`.
 * Two replicas sharing a PostgreSQL store both take a decision made once.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { maliciousStdio, readLines, type ToolAttack } from '@switchboard/test-helpers';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const run = promisify(execFile);
const sandbox = createSandbox();
const closers: Array<() => Promise<unknown>> = [];

beforeAll(() => mkdirSync(sandbox.root, { recursive: true }));
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});
afterAll(() => sandbox.cleanup());

/** What either SDK's client offers here (both answer `listTools` and `callTool` alike). */
interface SdkClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** A downstream client of either era, and the `list_changed` notifications it heard. */
interface Downstream {
  era: string;
  listChanged: number;
  names(): Promise<string[]>;
  /** The text of a call's answer: its result, or the JSON-RPC error's message. */
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }>;
}

function downstreamOf(era: string, client: SdkClient): Downstream {
  closers.push(() => client.close());
  return {
    era,
    listChanged: 0,
    names: async () => (await client.listTools()).tools.map((tool) => tool.name).sort(),
    call: (name, args) =>
      client.callTool({ name, arguments: args }).then(
        (result) => {
          const { isError, content } = result as { isError?: boolean; content: Array<{ text?: string }> };
          return { isError: isError === true, text: content.map((block) => block.text ?? '').join('') };
        },
        (error: Error) => ({ isError: true, text: error.message }),
      ),
  };
}

async function legacyOver(transport: LegacyHttp | LegacyStdio): Promise<Downstream> {
  const client = new LegacyClient({ name: 'v1-session', version: '1.0.0' });
  const downstream = downstreamOf('SDK v1, 2025 session', client as unknown as SdkClient);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    downstream.listChanged++;
  });
  await client.connect(transport);
  return downstream;
}

async function modernOver(transport: ModernHttp | ModernStdio): Promise<Downstream> {
  const client = new ModernClient(
    { name: 'v2-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const downstream = downstreamOf('SDK v2, 2026-07-28', client as unknown as SdkClient);
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    downstream.listChanged++;
  });
  await client.connect(transport);
  const listening = await client.listen({ toolsListChanged: true });
  closers.push(() => listening.close());
  return downstream;
}

let scenarios = 0;
/** A config file and a home of its own (so a registry store of its own) for one scenario. */
function scenario(servers: Record<string, unknown>, storeEnv: Record<string, string> = {}) {
  scenarios++;
  const home = join(sandbox.root, `home-${scenarios}`);
  mkdirSync(home, { recursive: true });
  const config = join(sandbox.root, `trust-${scenarios}.json`);
  sandbox.writeConfig(config, servers);
  const env = { ...sandbox.env, HOME: home, SWITCHBOARD_HOME: home, SWITCHBOARD_LOG: 'warn', ...storeEnv };
  return {
    config,
    env: env as Record<string, string>,
    /** Runs the real binary once (`tools diff`, `tools approve`) and resolves with its stdout. */
    async cli(argv: string[]): Promise<string> {
      const { stdout } = await run(process.execPath, [bin, ...argv, '--config', config], { env });
      return stdout;
    },
  };
}

/** `switchboard serve --http` in a child process; resolves with its URL once it serves. */
async function serveHttp(setup: ReturnType<typeof scenario>, extra: string[] = []): Promise<string> {
  const child: ChildProcess = spawn(
    process.execPath,
    // --session: a 2025 client hears list_changed on its session's stream (2026-07-28 clients listen).
    [
      bin,
      'serve',
      '--http',
      '--port',
      '0',
      '--session',
      '--approval',
      'host',
      '--config',
      setup.config,
      ...extra,
    ],
    { env: setup.env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  closers.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });
  const line = await readLines(child.stderr as Readable, "serve's stderr").find(
    (text) => /on http:\/\/\S+/.test(text),
    { timeoutMs: 60_000, what: 'serve to print its URL' },
  );
  return /on (http:\/\/\S+)/.exec(line)?.[1] as string;
}

/** Both eras' clients of a served URL. */
async function clientsOf(url: string): Promise<Downstream[]> {
  return [await legacyOver(new LegacyHttp(new URL(url))), await modernOver(new ModernHttp(new URL(url)))];
}

/** Approves the one pending definition of `server/tool` as a person would: its digest from `tools diff`. */
async function approveByCli(setup: ReturnType<typeof scenario>, server: string, tool: string): Promise<void> {
  const diff = JSON.parse(await setup.cli(['tools', 'diff', server, tool, '--json'])) as {
    pending: Array<{ record: { tool: string; digest: string } }>;
  };
  const digest = diff.pending.find((entry) => entry.record.tool === tool)?.record.digest;
  expect(digest, `a pending definition of ${server}/${tool}`).toMatch(/^sha256:/);
  const approved = await setup.cli(['tools', 'approve', server, tool, '--digest', digest as string]);
  expect(approved).toContain(`approved ${server}/${tool} ${digest}`);
}

/** Waits until the client no longer lists `name` (a rug pulled on a later listing takes one more). */
async function expectHidden(client: Downstream, name: string): Promise<void> {
  await expect.poll(async () => (await client.names()).includes(name), { timeout: 20_000 }).toBe(false);
}

/**
 * Approves `server/tool` with the cli, then waits until every client heard `list_changed` after it,
 * lists the tool and can call it.
 */
async function expectBackAfterApproval(
  setup: ReturnType<typeof scenario>,
  clients: Downstream[],
  target: { server: string; tool: string; args: Record<string, unknown> },
): Promise<void> {
  const name = `mcp__${target.server}__${target.tool}`;
  const heard = clients.map((client) => client.listChanged);
  await approveByCli(setup, target.server, target.tool);
  for (const [index, client] of clients.entries()) {
    await expect
      .poll(() => client.listChanged, { timeout: 20_000, message: client.era })
      .toBeGreaterThan(heard[index] ?? 0);
    expect(await client.names(), client.era).toContain(name);
    expect(await client.call(name, target.args), client.era).toMatchObject({ isError: false });
  }
}

interface Attack {
  attack: ToolAttack;
  /** The config's servers. */
  servers: Record<string, unknown>;
  server: string;
  tool: string;
  /** What TOOL_QUARANTINED says changed. */
  said: RegExp;
  args: Record<string, unknown>;
}

const numbers = { a: 2, b: 3 };
const mail = { to: 'a@example.com', body: 'hi' };
/** An attack on calc's `add`, the fixture's one server. */
const onCalc = (attack: ToolAttack, said: RegExp, env: Record<string, string> = {}): Attack => ({
  attack,
  servers: { calc: maliciousStdio(attack, env) },
  server: 'calc',
  tool: 'add',
  said,
  args: numbers,
});

const attacks: Attack[] = [
  // The rug is pulled on the second listing, which the server's own list_changed asks for.
  onCalc('rug-pull', /its definition changed since it was approved \(changed: description\)/, {
    NOTIFY: '1',
  }),
  onCalc('poisoned-description', /a check found text aimed at the model[\s\S]*AUTHORITY_TAG in description/),
  onCalc('poisoned-parameter', /SENSITIVE_FILE_ACCESS in inputSchema\.properties\.sidenote\.description/),
  {
    ...onCalc('shadowing', /NAMES_OTHER_SERVER_TOOL in description/),
    servers: { mail: maliciousStdio('mail'), calc: maliciousStdio('shadowing') },
  },
  {
    ...onCalc('rename', /looks like a pinned tool under another name[\s\S]*\(was "add"\)/, { NOTIFY: '1' }),
    tool: 'sum',
  },
  {
    attack: 'confusable',
    servers: { mail: maliciousStdio('mail'), evil: maliciousStdio('confusable') },
    server: 'evil',
    tool: 'send_emaiI',
    said: /CONFUSABLE_NAME in name/,
    args: mail,
  },
  onCalc('invisible', /TAG_CHARACTERS in description/),
];

describe('switchboard serve: tool trust end to end', () => {
  it.each(attacks)(
    'catches $attack: hidden downstream, TOOL_QUARANTINED on a call, back with list_changed once approved',
    async ({ servers, server, tool, said, args }) => {
      const setup = scenario(servers);
      const clients = await clientsOf(await serveHttp(setup));
      const name = `mcp__${server}__${tool}`;
      for (const client of clients) {
        await expectHidden(client, name);
        // A renamed tool is never listed, so hidden says nothing yet: the rename comes with the
        // server's second listing, and until serve has read it the new name is merely unknown.
        await expect
          .poll(async () => (await client.call(name, args)).text, { timeout: 20_000, message: client.era })
          .toContain('TOOL_QUARANTINED');
        const refused = await client.call(name, args);
        expect(refused.isError, client.era).toBe(true);
        expect(refused.text, client.era).toContain('TOOL_QUARANTINED');
        expect(refused.text, client.era).toContain(`Tool "${tool}" of MCP server "${server}"`);
        expect(refused.text, client.era).toMatch(said);
      }

      await expectBackAfterApproval(setup, clients, { server, tool, args });
    },
    90_000,
  );

  it('catches a rug pull behind serve over stdio, for clients of both eras that spawn it', async () => {
    const setup = scenario({ calc: maliciousStdio('rug-pull', { NOTIFY: '1' }) });
    const args = [bin, 'serve', '--approval', 'host', '--config', setup.config];
    // The first run pins on first use; the two clients' own runs share that store.
    const clients = [
      await legacyOver(
        new LegacyStdio({ command: process.execPath, args, env: setup.env, stderr: 'ignore' }),
      ),
      await modernOver(
        new ModernStdio({ command: process.execPath, args, env: setup.env, stderr: 'ignore' }),
      ),
    ];
    for (const client of clients) {
      await expectHidden(client, 'mcp__calc__add');
      const refused = await client.call('mcp__calc__add', numbers);
      expect(refused.text, client.era).toContain('TOOL_QUARANTINED');
      expect(refused.text, client.era).toContain('(changed: description)');
    }
    await expectBackAfterApproval(setup, clients, { server: 'calc', tool: 'add', args: numbers });
  }, 90_000);
});

const postgresUrl = process.env.SWITCHBOARD_TEST_POSTGRES_URL;
describe.skipIf(postgresUrl === undefined)('switchboard serve: replicas sharing PostgreSQL', () => {
  const schema = `cli_trust_${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });

  it('quarantines a rug pull on both replicas; one approval brings it back on both', async () => {
    const store = `${postgresUrl}?schema=${schema}`;
    const setup = scenario(
      { calc: maliciousStdio('rug-pull', { NOTIFY: '1' }) },
      { SWITCHBOARD_STORE: store, SWITCHBOARD_OFFLINE: '1' },
    );
    const replicas = [
      await clientsOf(await serveHttp(setup, ['--store', store, '--replica-id', 'r1'])),
      await clientsOf(await serveHttp(setup, ['--store', store, '--replica-id', 'r2'])),
    ];
    const clients = replicas.flat();
    for (const client of clients) await expectHidden(client, 'mcp__calc__add');
    // Decided once, by a third process on the shared store: every replica's clients hear of it.
    await expectBackAfterApproval(setup, clients, { server: 'calc', tool: 'add', args: numbers });
  }, 120_000);
});

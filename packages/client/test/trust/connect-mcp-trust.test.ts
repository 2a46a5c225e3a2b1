/**
 * Each attack of the malicious fixture server, as a real stdio and a real HTTP server, through
 * connectMcp: caught, quarantined (absent from every list, refused with TOOL_QUARANTINED), shown as
 * a diff, and released by an approval.
 */
import { createToolRegistry, type ToolRegistry } from '@switchboard/core';
import { maliciousStdio, startMaliciousHttp, type ToolAttack } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClientError,
  ClientErrorCode,
  connectMcp,
  type McpConnection,
  type ServerEntry,
} from '../../src/index.js';

type Transport = 'stdio' | 'http';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function entryOf(attack: ToolAttack, transport: Transport): Promise<ServerEntry> {
  if (transport === 'stdio') return maliciousStdio(attack);
  const server = await startMaliciousHttp(attack);
  cleanups.push(async () => {
    await server[Symbol.asyncDispose]();
  });
  return { url: server.url };
}

async function connect(
  servers: Record<string, [ToolAttack, Transport]>,
  options: Parameters<typeof connectMcp>[1] = {},
): Promise<McpConnection> {
  const entries: Record<string, ServerEntry> = {};
  for (const [name, [attack, transport]] of Object.entries(servers))
    entries[name] = await entryOf(attack, transport);
  const connection = await connectMcp(entries, options);
  cleanups.push(() => connection.close());
  return connection;
}

async function refused(connection: McpConnection, name: string): Promise<ClientError> {
  const error = await connection.callTool(name, { a: 1, b: 2 }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ClientError.isInstance(error) && error.code).toBe(ClientErrorCode.ToolQuarantined);
  return error as ClientError;
}

const names = (registry: ToolRegistry) =>
  registry
    .list()
    .map((tool) => tool.name)
    .sort();

describe.each<Transport>(['stdio', 'http'])('connectMcp trust over %s', (transport) => {
  it('catches a rug pull on the second listing: hidden, refused, diffed, and back once approved', async () => {
    const connection = await connect({ calc: ['rug-pull', transport] }, { approval: 'never' });
    expect(names(connection.registry)).toEqual(['mcp__calc__add', 'mcp__calc__sub']);
    const held = connection.tools.mcp__calc__add;
    await connection.refreshTools('calc');
    expect(names(connection.registry)).toEqual(['mcp__calc__sub']);
    expect(Object.keys(connection.tools)).toEqual(['mcp__calc__sub']);
    const error = await refused(connection, 'mcp__calc__add');
    expect(error.context).toMatchObject({
      server: 'calc',
      tool: 'add',
      change: 'changed',
      parts: ['description'],
    });
    expect(error.message).toContain('switchboard tools diff calc add');
    // A tool object an agent held from before is refused too.
    await expect(held?.execute?.({ a: 1, b: 2 })).rejects.toMatchObject({
      code: ClientErrorCode.ToolQuarantined,
    });
    const [pending] = await connection.trust.pending();
    expect(pending).toMatchObject({ server: 'calc', tool: 'add', change: 'changed' });
    const [diff] = await connection.trust.diff({ server: 'calc', tool: 'add' });
    expect(diff?.diff.patch).toContain('-description: Adds two numbers.');
    expect(diff?.diff.patch).toContain('+description: Adds two numbers. <IMPORTANT>Before using this tool');
    await connection.trust.approve({ server: 'calc', tool: 'add' }, { by: 'test' });
    expect(names(connection.registry)).toEqual(['mcp__calc__add', 'mcp__calc__sub']);
    expect(await connection.callTool('mcp__calc__add', { a: 1, b: 2 })).toMatchObject({ status: 'success' });
  });

  it.each<[ToolAttack, string, string]>([
    ['poisoned-description', 'AUTHORITY_TAG', 'description'],
    ['poisoned-parameter', 'SENSITIVE_FILE_ACCESS', 'inputSchema.properties.sidenote.description'],
    ['invisible', 'TAG_CHARACTERS', 'description'],
  ])('quarantines a first-seen %s and trusts the clean tool beside it', async (attack, code, field) => {
    const connection = await connect({ calc: [attack, transport] });
    expect(names(connection.registry)).toEqual(['mcp__calc__sub']);
    const error = await refused(connection, 'mcp__calc__add');
    expect(error.context).toMatchObject({ change: 'finding' });
    const verdict = connection.trust.verdicts('calc').find((entry) => entry.tool === 'add');
    expect(verdict?.findings.map((finding) => [finding.code, finding.field])).toContainEqual([code, field]);
  });

  it('quarantines a shadowing description naming another server’s tool, and leaves that tool alone', async () => {
    const connection = await connect({ mail: ['mail', transport], calc: ['shadowing', transport] });
    expect(names(connection.registry)).toEqual(['mcp__calc__sub', 'mcp__mail__send_email']);
    const verdict = connection.trust.verdicts('calc').find((entry) => entry.tool === 'add');
    expect(verdict?.findings.map((finding) => finding.code)).toContain('NAMES_OTHER_SERVER_TOOL');
  });

  it('quarantines a confusable name, not the honest tool it imitates', async () => {
    const connection = await connect({ mail: ['mail', transport], evil: ['confusable', transport] });
    expect(names(connection.registry)).toEqual(['mcp__mail__send_email']);
    const error = await refused(connection, 'mcp__evil__send_emaiI');
    expect(error.context).toMatchObject({
      server: 'evil',
      tool: 'send_emaiI',
      findings: ['CONFUSABLE_NAME'],
    });
  });

  it('sees a rename as a rename of the pinned tool', async () => {
    const connection = await connect({ calc: ['rename', transport] });
    await connection.refreshTools('calc');
    expect(names(connection.registry)).toEqual(['mcp__calc__sub']);
    const error = await refused(connection, 'mcp__calc__sum');
    expect(error.context).toMatchObject({ change: 'renamed', previousName: 'add' });
  });

  it("quarantines a whole new server under newServers: 'quarantine', and lets it through under pin: 'warn'", async () => {
    const strict = await connect({ calc: ['honest', transport] }, { trust: { newServers: 'quarantine' } });
    expect(names(strict.registry)).toEqual([]);
    expect((await strict.trust.pending()).map((record) => record.change)).toEqual([
      'new-server',
      'new-server',
    ]);
    await strict.trust.approve({ server: 'calc' });
    expect(names(strict.registry)).toEqual(['mcp__calc__add', 'mcp__calc__sub']);

    const warned: string[] = [];
    const lenient = await connect(
      { calc: ['poisoned-description', transport] },
      { trust: { pin: 'warn' }, registry: createToolRegistry() },
    );
    lenient.trust.onEvent((event) => warned.push(event.type));
    expect(names(lenient.registry)).toEqual(['mcp__calc__add', 'mcp__calc__sub']);
    expect(lenient.trust.verdicts('calc').find((entry) => entry.tool === 'add')).toMatchObject({
      state: 'quarantined',
      usable: true,
    });
  });
});

describe('connectMcp trust policy per server', () => {
  it("a server's own trust setting goes over the connection's", async () => {
    const connection = await connect(
      { calc: ['poisoned-description', 'stdio'] },
      { trust: { pin: 'block' } },
    );
    expect(names(connection.registry)).toEqual(['mcp__calc__sub']);
    const off = await connectMcp({
      calc: { ...maliciousStdio('poisoned-description'), trust: { pin: 'off' } },
    });
    cleanups.push(() => off.close());
    expect(names(off.registry)).toEqual(['mcp__calc__add', 'mcp__calc__sub']);
  });
});

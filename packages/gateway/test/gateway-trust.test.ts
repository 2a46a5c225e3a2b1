/**
 * Tool trust through the gateway: downstream clients (official SDK v1 on a 2025 session, SDK v2
 * pinned to 2026-07-28) see only trusted tools of the malicious fixture upstream; a rug pull
 * disappears from their lists with `notifications/tools/list_changed`, a call to it is refused,
 * and an approval brings it back with another `list_changed`. Two gateway replicas sharing a
 * PostgreSQL store share the trust state: a decision on one reaches the other's clients.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionTrust, McpConnection, McpServers } from '@switchboard/client';
import { createPostgresStore, type PostgresRegistryStore } from '@switchboard/client/postgres-store';
import { type ServeHandle, serve } from '@switchboard/server';
import { maliciousStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (closers.length)
    await closers
      .pop()?.()
      .catch(() => {});
});

/** A downstream client of either era, what it heard, and its tool names. */
interface Downstream {
  listChanged: number;
  names(): Promise<string[]>;
  call(name: string): Promise<{ isError?: boolean; text: string }>;
}

async function served(gateway: Gateway): Promise<string> {
  const handle = (await serve(gateway, {
    transport: { type: 'http', port: 0, session: true },
  })) as ServeHandle & { url: string };
  closers.push(() => handle.close());
  return handle.url;
}

/** What either SDK's client offers the tests (both answer `listTools` and `callTool` alike). */
interface SdkClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

function downstreamOf(client: SdkClient): Downstream {
  return {
    listChanged: 0,
    names: async () => (await client.listTools()).tools.map((tool) => tool.name).sort(),
    call: async (name) => {
      const result = (await client.callTool({ name, arguments: { a: 1, b: 2 } })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
      };
      return {
        isError: result.isError === true,
        text: result.content.map((block) => block.text ?? '').join(''),
      };
    },
  };
}

async function legacyClient(url: string): Promise<Downstream> {
  const client = new V1Client({ name: 'v1-session', version: '1.0.0' });
  const downstream = downstreamOf(client as unknown as SdkClient);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    downstream.listChanged++;
  });
  await client.connect(new V1Http(new URL(url)));
  closers.push(() => client.close());
  return downstream;
}

async function modernClient(url: string): Promise<Downstream> {
  const client = new V2Client(
    { name: 'v2-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const downstream = downstreamOf(client as unknown as SdkClient);
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    downstream.listChanged++;
  });
  await client.connect(new V2Http(new URL(url)));
  closers.push(() => client.close());
  const listening = await client.listen({ toolsListChanged: true });
  closers.push(() => listening.close());
  return downstream;
}

/** A call the gateway refuses: a JSON-RPC error, or an error result. */
async function refusal(downstream: Downstream, name: string): Promise<string> {
  const outcome = await downstream.call(name).then(
    (result) => result,
    (error: unknown) => ({ isError: true, text: error instanceof Error ? error.message : String(error) }),
  );
  expect(outcome.isError).toBe(true);
  return outcome.text;
}

function trustOf(gateway: Gateway): ConnectionTrust {
  const trust = gateway.clients.trust;
  if (trust === undefined) throw new Error('the gateway set has no trust');
  return trust;
}

async function gatewayOf(servers: McpServers, store?: PostgresRegistryStore): Promise<Gateway> {
  const gateway = await createGateway({
    config: servers,
    // The fixture's tools carry no annotations, so the default policy would ask before each call.
    allowApprovalTools: true,
    ...(store === undefined ? {} : { connectOptions: { store } }),
  });
  closers.push(() => gateway.close());
  return gateway;
}

describe('gateway trust', () => {
  it('serves only trusted tools; a rug pull leaves the lists with list_changed; an approval brings it back', async () => {
    const gateway = await gatewayOf({
      calc: maliciousStdio('rug-pull'),
      poison: maliciousStdio('poisoned-description'),
    });
    const url = await served(gateway);
    const clients = [await legacyClient(url), await modernClient(url)];
    // The poisoned tool never reaches a downstream list; its honest neighbour does.
    for (const client of clients) {
      expect(await client.names()).toEqual(['mcp__calc__add', 'mcp__calc__sub', 'mcp__poison__sub']);
      expect(await refusal(client, 'mcp__poison__add')).toContain('mcp__poison__add');
    }

    // The upstream lists again (as on its list_changed, or a reconnect) and pulls the rug.
    const heard = clients.map((client) => client.listChanged);
    await (gateway.clients as McpConnection).refreshTools('calc');
    expect(await trustOf(gateway).pending({ server: 'calc' })).toEqual([
      expect.objectContaining({ tool: 'add', change: 'changed', parts: ['description'] }),
    ]);
    for (const [index, client] of clients.entries()) {
      await expect.poll(() => client.listChanged, { timeout: 10_000 }).toBeGreaterThan(heard[index] ?? 0);
      expect(await client.names()).toEqual(['mcp__calc__sub', 'mcp__poison__sub']);
      const refused = await refusal(client, 'mcp__calc__add');
      // The downstream learns why: the code, the server, the tool and what changed.
      expect(refused).toContain('TOOL_QUARANTINED');
      expect(refused).toContain('Tool "add" of MCP server "calc" is quarantined');
      expect(refused).toContain('(changed: description)');
    }

    const before = clients.map((client) => client.listChanged);
    await trustOf(gateway).approve({ server: 'calc', tool: 'add' }, { by: 'test' });
    for (const [index, client] of clients.entries()) {
      await expect.poll(() => client.listChanged, { timeout: 10_000 }).toBeGreaterThan(before[index] ?? 0);
      expect(await client.names()).toEqual(['mcp__calc__add', 'mcp__calc__sub', 'mcp__poison__sub']);
      expect(await client.call('mcp__calc__add')).toEqual({ isError: false, text: '3' });
    }
  });

  const postgresUrl = process.env.SWITCHBOARD_TEST_POSTGRES_URL;
  it.skipIf(postgresUrl === undefined)(
    'replicas sharing PostgreSQL share the trust state: one approval, list_changed on the other',
    async () => {
      const schema = `gateway_trust_${process.pid}_${Date.now()}`;
      const storeOf = () => {
        const store = createPostgresStore({
          connectionString: postgresUrl as string,
          schema,
          changePollMs: 500,
        });
        closers.push(() => store.close());
        return store;
      };
      // A first use pins the honest definition in the shared store.
      const pinning = await gatewayOf({ calc: maliciousStdio('honest') }, storeOf());
      await expect.poll(() => trustOf(pinning).verdicts('calc').length, { timeout: 10_000 }).toBe(2);
      await pinning.close();

      // The upstream changed: both replicas quarantine the changed tool against the shared pins.
      const changed = { calc: maliciousStdio('honest', { ADD_DESCRIPTION: 'Adds two numbers, quickly.' }) };
      const [first, second] = [await gatewayOf(changed, storeOf()), await gatewayOf(changed, storeOf())];
      const secondClient = await legacyClient(await served(second));
      const modernOfSecond = await modernClient(await served(second));
      expect(await secondClient.names()).toEqual(['mcp__calc__sub']);
      expect(await modernOfSecond.names()).toEqual(['mcp__calc__sub']);
      expect(await trustOf(first).pending({ server: 'calc' })).toEqual([
        expect.objectContaining({ tool: 'add', change: 'changed', parts: ['description'] }),
      ]);

      // Approved on the first replica: the second hears it through the store and tells its clients.
      await trustOf(first).approve({ server: 'calc', tool: 'add' }, { by: 'test' });
      for (const client of [secondClient, modernOfSecond]) {
        await expect.poll(() => client.listChanged, { timeout: 15_000 }).toBeGreaterThan(0);
        expect(await client.names()).toEqual(['mcp__calc__add', 'mcp__calc__sub']);
      }
    },
  );
});

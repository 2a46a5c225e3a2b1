/**
 * An SDK v1 `Client` connected to a server in the same process over the SDK's linked in-memory
 * transport pair: the unit-test tier, with no process or socket between the two. `close()` (or
 * leaving an `await using` scope) ends both sides.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** What serves one end of the pair: a Switchboard server or gateway, an SDK `Server`. */
export interface InMemoryServer {
  connect(transport: InMemoryTransport): Promise<unknown>;
}

/** Options of {@link connectInMemory}. */
export interface ConnectInMemoryOptions {
  /** The client's name in `initialize`. @default 'test' */
  name?: string;
  /** The client's capabilities. @default {} */
  capabilities?: ClientCapabilities;
}

/** A connected client; `close()` closes it, then the server's side of the pair. */
export interface InMemoryConnection extends AsyncDisposable {
  client: Client;
  close(): Promise<void>;
}

function canClose(value: unknown): value is { close(): Promise<void> } {
  return typeof (value as { close?: unknown } | undefined)?.close === 'function';
}

/** Connects `server` to one end of a linked pair and a new `Client` to the other. */
export async function connectInMemory(
  server: InMemoryServer,
  options: ConnectInMemoryOptions = {},
): Promise<InMemoryConnection> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  // What `connect` returned owns the server's side (a connection handle); an SDK `Server` returns nothing.
  const serverSide = await server.connect(serverTransport);
  const client = new Client(
    { name: options.name ?? 'test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  await client.connect(clientTransport);
  const close = async () => {
    await client.close();
    if (canClose(serverSide)) await serverSide.close();
    else await serverTransport.close();
  };
  return { client, close, [Symbol.asyncDispose]: close };
}

/**
 * The skills extension (`io.modelcontextprotocol/skills`, SEP-2640) through the SDK's own
 * `SkillsClient`, which lists skills and verifies each file (size, digest, frontmatter) and needs
 * an SDK `Client` to do it. That Client is only a codec here: it is connected, without a round
 * trip, to a transport whose every request goes out through this connection's request engine
 * (`initialize` is answered from the handshake already made), so the wire still sees one client
 * and one table of pending requests. Made on first use.
 */
import {
  Client,
  type DiscoverResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  ProtocolError,
  type Transport,
} from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { NegotiatedSession } from './era-negotiation.js';
import type { RequestEngine } from './request-engine.js';

/** What the adapter answers from and sends through. */
export interface SkillsAdapterOptions {
  engine: RequestEngine;
  session: NegotiatedSession;
  clientInfo: { name: string; version: string };
  requestTimeoutMs: number;
}

/** A `SkillsClient` whose requests go through `engine`. */
export async function createSkillsClient(options: SkillsAdapterOptions): Promise<SkillsClient> {
  const { session } = options;
  const client = new Client(options.clientInfo, { capabilities: {} });
  const transport = new EngineTransport(options);
  if (session.era === 'modern' && session.discover !== undefined) {
    await client.connect(transport, {
      prior: { kind: 'modern', discover: session.discover as DiscoverResult },
    });
  } else {
    await client.connect(transport);
  }
  return new SkillsClient(client);
}

/** An SDK transport that hands each request to the engine and each answer back. */
class EngineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];

  constructor(private readonly options: SkillsAdapterOptions) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Notifications (`initialized`, cancellations of the codec's own deadlines) stay here.
    if (!('method' in message) || !('id' in message)) return;
    const request = message as JSONRPCRequest;
    if (request.method === 'initialize') {
      const { session } = this.options;
      this.answer(request.id, {
        protocolVersion: session.protocolVersion,
        capabilities: session.capabilities,
        serverInfo: session.serverInfo ?? { name: 'unknown', version: '0' },
        ...(session.instructions === undefined ? {} : { instructions: session.instructions }),
      });
      return;
    }
    const { _meta: _codecEnvelope, ...params } = (request.params ?? {}) as Record<string, unknown>;
    this.options.engine.request(request.method, params, { timeoutMs: this.options.requestTimeoutMs }).then(
      (result) => this.answer(request.id, result),
      (error: unknown) => {
        const code = error instanceof ProtocolError ? error.code : -32_603;
        const data = error instanceof ProtocolError ? error.data : undefined;
        this.onmessage?.({
          jsonrpc: '2.0',
          id: request.id,
          error: {
            code,
            message: error instanceof Error ? error.message : String(error),
            ...(data === undefined ? {} : { data }),
          },
        });
      },
    );
  }

  private answer(id: JSONRPCRequest['id'], result: unknown): void {
    this.onmessage?.({ jsonrpc: '2.0', id, result: result as Record<string, unknown> });
  }
}

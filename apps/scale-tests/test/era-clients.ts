/**
 * The official SDK clients the scenarios drive, behind one small interface: SDK v2
 * (`@modelcontextprotocol/client`) pinned to 2026-07-28, and SDK v1 (`@modelcontextprotocol/sdk`)
 * speaking 2025 to a stateless server.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Which SDK and protocol era. */
export type Era = 'sdk-v2 2026-07-28' | 'sdk-v1 2025';

export const eras: Era[] = ['sdk-v2 2026-07-28', 'sdk-v1 2025'];

/** The parts of a tool result a caller reads (`_meta` names the server that answered, so it is left out). */
export interface CallOutcome {
  content: unknown;
  structuredContent: unknown;
  isError: unknown;
}

/** One connected client of either era. */
export interface EraClient {
  era: Era;
  callTool(name: string, args: Record<string, unknown>): Promise<CallOutcome>;
  close(): Promise<void>;
}

function outcomeOf(result: {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}): CallOutcome {
  return { content: result.content, structuredContent: result.structuredContent, isError: result.isError };
}

/** Connects a client of `era` to the MCP endpoint `url`. */
export async function connectEraClient(
  era: Era,
  url: string,
  options: { timeoutMs?: number } = {},
): Promise<EraClient> {
  const request = options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : undefined;
  if (era === 'sdk-v2 2026-07-28') {
    const client = new ModernClient(
      { name: 'scale-sdk-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new ModernTransport(new URL(url)));
    if (client.getProtocolEra() !== 'modern') throw new Error(`${url}: SDK v2 did not negotiate 2026-07-28`);
    return {
      era,
      callTool: async (name, args) => outcomeOf(await client.callTool({ name, arguments: args }, request)),
      close: () => client.close(),
    };
  }
  const client = new LegacyClient({ name: 'scale-sdk-v1', version: '1.0.0' });
  await client.connect(new LegacyTransport(new URL(url)));
  return {
    era,
    callTool: async (name, args) =>
      outcomeOf((await client.callTool({ name, arguments: args }, undefined, request)) as CallOutcome),
    close: () => client.close(),
  };
}

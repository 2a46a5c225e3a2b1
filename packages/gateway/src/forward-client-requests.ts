/**
 * What an upstream server asks of its client while a gateway tool call runs (elicitation,
 * sampling, roots) is asked of the downstream client that made the call, through the call's tool
 * context: a 2025 session gets the request pushed on the call's stream; a 2026-07-28 call answers
 * input-required and the downstream's answer comes back with its retry, while the upstream call
 * stays open. The downstream's answer goes back to the upstream as it came; what the downstream
 * cannot answer (no such capability, no channel, no retry in time) becomes a JSON-RPC error for
 * the upstream that says so.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import type { CallServerRequestHandlers } from '@switchboard/client';
import { JsonRpcErrorCode, type ToolContext, toWireError } from '@switchboard/server';

/** The upstream tool a relayed call runs (for messages). */
export interface RelayedTool {
  server: string;
  /** The tool's name on the upstream server. */
  tool: string;
}

/**
 * Told when the downstream could not answer: a 2026-07-28 upstream's call then fails in the
 * gateway's client (its input round cannot be fulfilled), and the relayed call fails with this
 * error as a tool failure instead of as if the upstream had answered with it.
 */
export type DownstreamRefusal = (error: Error) => void;

/** Runs one ask; a failure becomes the error the upstream receives for its request. */
async function askDownstream<T>(
  method: string,
  relayed: RelayedTool,
  refused: DownstreamRefusal,
  ask: () => Promise<T>,
): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    const wire = toWireError(error);
    const message = `The gateway's client could not answer ${method} of upstream MCP server "${relayed.server}" (tool "${relayed.tool}"): ${wire.message}`;
    refused(new Error(message));
    throw new ProtocolError(wire.code, message, wire.data);
  }
}

/** The handlers of one relayed call: each upstream request goes to the downstream call's client. */
export function forwardClientRequests(
  context: ToolContext,
  relayed: RelayedTool,
  refused: DownstreamRefusal,
): CallServerRequestHandlers {
  return {
    onElicitation: (params) =>
      askDownstream('elicitation/create', relayed, refused, () => context.elicit(params as never)),
    onSampling: (params) =>
      askDownstream(
        'sampling/createMessage',
        relayed,
        refused,
        () => context.sample(params as never) as never,
      ),
    onListRoots: async () => {
      // Upstreams ask for roots unprompted (server-everything right after initialize, others on a
      // roots change), so the request may only happen to coincide with this call: a downstream
      // without roots gets nothing asked and the call goes on; the upstream hears it has none.
      if (context.clientCapabilities.roots === undefined) {
        throw new ProtocolError(
          JsonRpcErrorCode.MethodNotFound,
          `The downstream client of the gateway's call to "${relayed.tool}" declared no roots capability; upstream MCP server "${relayed.server}" gets no roots.`,
        );
      }
      return (await askDownstream('roots/list', relayed, refused, () => context.listRoots())).roots;
    },
  };
}

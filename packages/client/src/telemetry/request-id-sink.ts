/**
 * How a traced call learns the JSON-RPC id its request went out with (`jsonrpc.request.id`):
 * the SDK numbers its requests itself and says nothing, so the call's `_meta` carries a sink under
 * an own symbol key — the SDK's and the direct lane's spreads copy it, JSON never writes it — and
 * the connection's transport, seeing the request leave, tells the sink the id.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

const sinkKey = Symbol('switchboard.requestIdSink');

/** `meta` with `sink` attached (told the id of the request that carries it). */
export function withRequestIdSink<T extends object>(meta: T, sink: (id: string | number) => void): T {
  return Object.assign(meta, { [sinkKey]: sink });
}

/** Makes `transport` tell each request's sink its id as the request is sent. */
export function reportRequestIds(transport: Transport): void {
  const send = transport.send;
  transport.send = function sendReportingId(message: JSONRPCMessage, options) {
    const meta = (message as { params?: { _meta?: Record<symbol, unknown> } }).params?._meta;
    if (meta !== undefined) {
      const sink = meta[sinkKey];
      if (typeof sink === 'function' && 'id' in message) sink(message.id);
    }
    return send.call(this, message, options);
  };
}

/**
 * The server side of stdio: newline-delimited JSON-RPC on stdin/stdout. Unlike the SDK's, it
 * answers malformed lines (-32700, -32600) instead of dropping them, and caps a line's size.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { createErrorResponse, parseJsonRpcText } from '../protocol/json-rpc-message.js';

/** Options of {@link createStdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** @default process.stdin */
  input?: Readable;
  /** @default process.stdout */
  output?: Writable;
  /** Longest accepted line in bytes; longer ones are answered with -32600 and skipped. @default 16 MiB */
  maxMessageBytes?: number;
}

/** The transports this module made (so a connection knows it is served over stdio). */
const stdioTransports = new WeakSet<Transport>();

/** True for a transport made by {@link createStdioServerTransport}. */
export function isStdioServerTransport(transport: Transport): boolean {
  return stdioTransports.has(transport);
}

/** A message transport (the SDK's `Transport` shape) over newline-delimited JSON on two streams. */
export function createStdioServerTransport(options: StdioServerTransportOptions = {}): Transport {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxMessageBytes = options.maxMessageBytes ?? 16 * 1024 * 1024;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let closed = false;

  const write = (message: unknown): Promise<void> =>
    new Promise((resolve) => {
      if (closed) return resolve();
      const ok = output.write(`${JSON.stringify(message)}\n`);
      if (ok) resolve();
      else output.once('drain', resolve);
    });

  const transport: Transport = {
    async start() {
      input.on('data', onData);
      input.on('end', onEnd);
      input.on('error', onError);
      // A reader that went away (EPIPE) ends the session instead of crashing the process.
      output.on('error', onOutputError);
    },
    send(message: JSONRPCMessage) {
      return write(message);
    },
    async close() {
      if (closed) return;
      closed = true;
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      output.off('error', onOutputError);
      if (input === process.stdin) input.pause();
      transport.onclose?.();
    },
  };

  function onError(error: Error): void {
    transport.onerror?.(error);
  }
  function onOutputError(error: Error): void {
    transport.onerror?.(error);
    void transport.close();
  }
  function onEnd(): void {
    void transport.close();
  }

  function handleLine(line: string): void {
    if (line.trim() === '') return;
    const checked = parseJsonRpcText(line.endsWith('\r') ? line.slice(0, -1) : line);
    const items = Array.isArray(checked) ? checked : [checked];
    for (const item of items) {
      if ('error' in item) void write(item.error);
      else transport.onmessage?.(item.message);
    }
  }

  function onData(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1) break;
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (skipping) {
        skipping = false;
        continue;
      }
      if (pendingBytes + piece.length > maxMessageBytes) {
        pending = [];
        pendingBytes = 0;
        void write(
          createErrorResponse(
            null,
            JsonRpcErrorCode.InvalidRequest,
            `Invalid Request: message exceeds ${maxMessageBytes} bytes`,
          ),
        );
        continue;
      }
      const line =
        pendingBytes === 0 ? piece.toString('utf8') : Buffer.concat([...pending, piece]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      handleLine(line);
    }
    if (start < chunk.length && !skipping) {
      const rest = chunk.subarray(start);
      if (pendingBytes + rest.length > maxMessageBytes) {
        pending = [];
        pendingBytes = 0;
        skipping = true;
        void write(
          createErrorResponse(
            null,
            JsonRpcErrorCode.InvalidRequest,
            `Invalid Request: message exceeds ${maxMessageBytes} bytes`,
          ),
        );
        return;
      }
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
  }

  stdioTransports.add(transport);
  return transport;
}

/**
 * A thin layer over a transport that offers a chosen protocol version at `initialize` and records
 * the version the server answered with.
 *
 * Why it exists: the SDK `Client` always offers its latest protocol version and keeps the
 * negotiated one to itself. Users need both to be visible: a server may misbehave at the latest
 * version, and some are measurably slower there — servers on the SDK's Streamable HTTP transport
 * with an event store send a priming event first at 2025-11-25, and @hono/node-server then waits
 * one timer tick before writing the response (≈1–1.5 ms per call on server-everything).
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '@switchboard/core';

/** Protocol versions a client can offer (the SDK's supported list, newest first). */
export const supportedProtocolVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** A transport that knows the protocol version its session negotiated. */
export interface ProtocolVersionTransport extends Transport {
  /** The version the server chose in its `initialize` result; undefined before that. */
  readonly negotiatedProtocolVersion: string | undefined;
}

/** Throws a clear error when `version` is not one this client can speak. */
export function checkProtocolVersion(version: string, where: string): void {
  if (supportedProtocolVersions.includes(version)) return;
  throw new SwitchboardError({
    code: 'UNSUPPORTED_PROTOCOL_VERSION',
    message: `${where}: protocol version "${version}" is not supported. Use one of ${supportedProtocolVersions.join(', ')}, or leave it out to offer the latest (${LATEST_PROTOCOL_VERSION}).`,
    context: { protocolVersion: version, supported: [...supportedProtocolVersions] },
  });
}

type MessageHandler = NonNullable<Transport['onmessage']>;

/**
 * Wraps `inner`. With `offered` (checked by the caller with {@link checkProtocolVersion}), the
 * `initialize` request offers that version instead of the SDK's latest. Messages pass through untouched once the session is initialized: the wrapper steps out of
 * the receive path after the `initialize` answer, so calls pay nothing for it.
 */
export function createProtocolVersionTransport(inner: Transport, offered?: string): ProtocolVersionTransport {
  let negotiated: string | undefined;
  let initializeId: RequestId | undefined;
  let handler: MessageHandler | undefined;

  const watchInitialize: MessageHandler = (message, extra) => {
    if (initializeId !== undefined && 'id' in message && message.id === initializeId) {
      if ('result' in message) {
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === 'string') negotiated = version;
      }
      initializeId = undefined;
      // From here on the SDK's handler receives messages directly.
      inner.onmessage = handler;
    }
    handler?.(message, extra);
  };

  return {
    get negotiatedProtocolVersion() {
      return negotiated;
    },
    get sessionId() {
      return inner.sessionId;
    },
    set sessionId(value) {
      inner.sessionId = value;
    },
    get onmessage() {
      return handler;
    },
    set onmessage(value) {
      handler = value;
      inner.onmessage = initializeId === undefined && negotiated !== undefined ? value : watchInitialize;
    },
    get onerror() {
      return inner.onerror;
    },
    set onerror(value) {
      inner.onerror = value;
    },
    get onclose() {
      return inner.onclose;
    },
    set onclose(value) {
      inner.onclose = value;
    },
    start: () => inner.start(),
    close: () => inner.close(),
    send(message: JSONRPCMessage, options?: TransportSendOptions) {
      if ('method' in message && message.method === 'initialize' && 'id' in message) {
        initializeId = message.id;
        if (offered !== undefined) {
          message = { ...message, params: { ...message.params, protocolVersion: offered } };
        }
      }
      return inner.send(message, options);
    },
    setProtocolVersion(version: string) {
      inner.setProtocolVersion?.(version);
    },
  };
}

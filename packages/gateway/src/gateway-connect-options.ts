/**
 * What a gateway's upstream set needs to let upstream requests cross the bridge: client-level
 * elicitation, sampling and roots handlers. Declaring them tells every upstream the gateway can
 * answer (a 2025 server offers its tools that ask only then), without claiming to fill in
 * elicitation defaults (the downstream's answer passes unchanged); each relayed call answers with
 * handlers of its own that ask the downstream client (`forward-client-requests.ts`). These
 * answer what arrives outside any relayed call — a server asking at connect time, or while two
 * calls to one stdio server are in flight (a 2025 request over stdio names no call) — with an
 * error that says why no downstream client can be asked.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import type { ConnectMcpOptions, ServerRequestContext } from '@switchboard/client';
import { JsonRpcErrorCode } from '@switchboard/server';

function outsideAnyCall(method: string, context: ServerRequestContext): ProtocolError {
  return new ProtocolError(
    JsonRpcErrorCode.InvalidRequest,
    `MCP server "${context.server}" sent ${method} outside any tool call the gateway relays to it (or while several calls to it were in flight on a transport that cannot tell them apart): there is no downstream client to ask. Ask within a tool call.`,
  );
}

/**
 * The client-level handlers of a gateway's upstream set (`createGateway({ config })` uses them;
 * pass them to your own `connectMcp` set to let upstream requests through).
 */
export function gatewayConnectOptions(): Required<
  Pick<ConnectMcpOptions, 'elicitation' | 'sampling' | 'roots' | 'applyElicitationDefaults'>
> {
  return {
    // The downstream client's answer reaches the upstream as it was given.
    applyElicitationDefaults: false,
    elicitation: (_params, context) => Promise.reject(outsideAnyCall('elicitation/create', context)),
    sampling: (_params, context) => Promise.reject(outsideAnyCall('sampling/createMessage', context)),
    roots: () => {
      throw new ProtocolError(
        JsonRpcErrorCode.InvalidRequest,
        'An upstream MCP server asked for roots/list outside any tool call the gateway relays to it: there is no downstream client to ask.',
      );
    },
  };
}

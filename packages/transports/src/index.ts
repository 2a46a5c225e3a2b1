/**
 * Public API of @switchboard/transports.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * Node-only parts that need `child_process` live on the `@switchboard/transports/stdio` subpath.
 */

export type { Transport, TransportSendOptions } from '@modelcontextprotocol/client';
export type { AssertionContext, AssertionSource, SecretSource } from './assertion-source.js';
export { AuthorizationErrorCode } from './authorization-error-code.js';
export type { CreateTransportOptions, TransportEntry, TransportType } from './create-transport.js';
export { createTransport, isStdioTransport, resolveTransportType } from './create-transport.js';
export type { IdentityProviderOptions } from './id-jag-assertion.js';
export { createInMemoryTransportPair } from './in-memory-transport.js';
export { JsonRpcErrorCode } from './json-rpc-error-code.js';
export type {
  AuthorizationResponse,
  LoopbackRedirect,
  LoopbackRedirectOptions,
} from './loopback-redirect.js';
export { startLoopbackRedirect } from './loopback-redirect.js';
export { encodeMcpHeaderValue } from './mcp-request-headers.js';
export type { AuthorizationRequest, BearerChallenge } from './oauth-authorization.js';
export { parseBearerChallenge, runAuthorization } from './oauth-authorization.js';
export type { DpopOptions, OAuthGrantType, OAuthProvider, OAuthProviderOptions } from './oauth-provider.js';
export { createOAuthProvider, needsAuthError } from './oauth-provider.js';
export type { HttpSendOptions } from './request-abort.js';
export type { AuthorizationAnswer, AuthorizedRequest } from './request-authorization.js';
export { accessTokenHeaders, dpopNonceRetry } from './request-authorization.js';
export type { SseTransportOptions } from './sse-transport.js';
export { createSseTransport } from './sse-transport.js';
export type { StdioExitInfo, StdioTransport, StdioTransportOptions } from './stdio-transport.js';
export type {
  HttpMessageExtraInfo,
  StreamableHttpTransport,
  StreamableHttpTransportOptions,
  StreamReconnectionOptions,
} from './streamable-http-transport.js';
export { createStreamableHttpTransport } from './streamable-http-transport.js';
export type {
  FileTokenStoreOptions,
  StoredAuthorization,
  StoredClientBinding,
  StoredDpopKey,
  TokenStore,
} from './token-store.js';
export {
  createFileTokenStore,
  createMemoryTokenStore,
  defaultTokenDirectory,
  migrateStoredAuthorization,
  serverKey,
} from './token-store.js';
export type { TransportErrorOptions } from './transport-error.js';
export { TransportError, TransportErrorCode } from './transport-error.js';
export { createWebSocketServerTransport } from './websocket-server-transport.js';
export type { WebSocketTransportOptions } from './websocket-transport.js';
export { createWebSocketTransport } from './websocket-transport.js';

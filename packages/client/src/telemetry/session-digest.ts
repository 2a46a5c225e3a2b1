/**
 * The client's earlier name for the `mcp.session.id` digest, which now lives in core
 * (`@switchboard/core/node`): the server records the same digest and no longer depends on the client.
 */
import { digestSessionId as coreDigestSessionId } from '@switchboard/core/node';

/**
 * The `mcp.session.id` of a session id: the first 32 hex digits of its SHA-256.
 * @deprecated import `digestSessionId` from `@switchboard/core/node`; kept here for one release.
 */
export const digestSessionId: (id: string) => string = coreDigestSessionId;

/**
 * The `requestState` HMAC key derived from a session key (HKDF-SHA256, fixed info label), so the
 * one session key file of a replica set also keys multi-round retries: every replica derives the
 * same key, and neither key reveals the other. Map the whole list to keep rotation:
 * `requestState: { keys: sessionKeys.map(deriveRequestStateKey) }`.
 */
import { hkdfSync } from 'node:crypto';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';

// Domain separation: a key derived for another purpose from the same session key differs.
const infoLabel = 'switchboard/request-state/v1';

/** Derives the 32-byte `requestState` key of `sessionKey` (a 32-byte session key). */
export function deriveRequestStateKey(sessionKey: Uint8Array): Buffer {
  if (!(sessionKey instanceof Uint8Array) || sessionKey.length !== 32) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message: `deriveRequestStateKey: expected a 32-byte session key (e.g. from loadSessionKeys(path)), got ${sessionKey instanceof Uint8Array ? `${sessionKey.length} bytes` : typeof sessionKey}.`,
    });
  }
  return Buffer.from(hkdfSync('sha256', sessionKey, Buffer.alloc(0), infoLabel, 32));
}

/**
 * Sealed 2025 session ids: the `Mcp-Session-Id` is the session's state itself, AES-256-GCM sealed,
 * so any replica holding the keys re-creates a session it has never seen without a lookup. The
 * caller's principal is the additional authenticated data: an id copied to another principal
 * does not open. Layout (base64url): version byte, key id (4 bytes of the key's SHA-256), 12-byte
 * random IV, ciphertext, 16-byte tag. The first key seals; every key opens (rotation).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { ClientCapabilities, Implementation } from '@modelcontextprotocol/server';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';

const sealVersion = 1;
const keyIdBytes = 4;
const ivBytes = 12;
const tagBytes = 16;
const headerBytes = 1 + keyIdBytes + ivBytes;
// Domain separation: a blob sealed for another purpose with the same key never opens as a session.
const aadPrefix = 'switchboard/session/v1\0';

/** What a replica needs to serve a 2025 session it did not open. */
export interface SealedSessionState {
  /** The revision `initialize` settled on. */
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** When `initialize` was answered (ms since the epoch). */
  createdAt: number;
  /** Random: two sessions of one client never share an id. */
  nonce: string;
}

/** Options of {@link createSessionSealer}. */
export interface SessionSealerOptions {
  /** 32-byte keys; the first seals, all open (list the new key first to rotate, drop the old one later). */
  keys: ReadonlyArray<Uint8Array>;
}

/** Seals session state into a session id and opens it again. */
export interface SessionSealer {
  /** Seals `state` for `principal`; the result is a visible-ASCII session id. */
  seal(
    state: Omit<SealedSessionState, 'nonce' | 'createdAt'> & Partial<SealedSessionState>,
    principal: string,
  ): string;
  /** The state sealed in `id` for `principal`; undefined when tampered, foreign, of another principal or of a retired key. */
  open(id: string, principal: string): SealedSessionState | undefined;
}

interface SealingKey {
  id: Buffer;
  key: Buffer;
}

/** The key id: the first bytes of the key's SHA-256 (names the key without revealing it). */
function keyIdOf(key: Buffer): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, keyIdBytes);
}

/** Creates a sealer over `keys`. */
export function createSessionSealer(options: SessionSealerOptions): SessionSealer {
  const keys: SealingKey[] = (options?.keys ?? []).map((raw, index) => {
    const key = Buffer.from(raw);
    if (key.length !== 32) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message: `createSessionSealer: key ${index + 1} has ${key.length} bytes; AES-256-GCM needs 32 (generate one with: openssl rand -base64 32).`,
      });
    }
    return { id: keyIdOf(key), key };
  });
  const sealing = keys[0];
  if (sealing === undefined) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message:
        'createSessionSealer: pass at least one 32-byte key (keys: [key], e.g. from loadSessionKeys(path)).',
    });
  }
  const aad = (principal: string) => Buffer.from(aadPrefix + principal, 'utf8');
  return {
    seal(state, principal) {
      const full: SealedSessionState = {
        protocolVersion: state.protocolVersion,
        clientCapabilities: state.clientCapabilities,
        ...(state.clientInfo !== undefined ? { clientInfo: state.clientInfo } : {}),
        createdAt: state.createdAt ?? Date.now(),
        nonce: state.nonce ?? randomBytes(12).toString('base64url'),
      };
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', sealing.key, iv, { authTagLength: tagBytes });
      cipher.setAAD(aad(principal));
      const sealed = Buffer.concat([cipher.update(JSON.stringify(full), 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.of(sealVersion), sealing.id, iv, sealed, cipher.getAuthTag()]).toString(
        'base64url',
      );
    },
    open(id, principal) {
      if (typeof id !== 'string' || id.length > 16_384 || !/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
      const blob = Buffer.from(id, 'base64url');
      if (blob.length <= headerBytes + tagBytes || blob[0] !== sealVersion) return undefined;
      const keyId = blob.subarray(1, 1 + keyIdBytes);
      const key = keys.find((candidate) => candidate.id.equals(keyId));
      if (key === undefined) return undefined;
      const iv = blob.subarray(1 + keyIdBytes, headerBytes);
      const tag = blob.subarray(blob.length - tagBytes);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key.key, iv, { authTagLength: tagBytes });
        decipher.setAAD(aad(principal));
        decipher.setAuthTag(tag);
        const plain = Buffer.concat([
          decipher.update(blob.subarray(headerBytes, blob.length - tagBytes)),
          decipher.final(),
        ]);
        const state = JSON.parse(plain.toString('utf8')) as SealedSessionState;
        return typeof state?.protocolVersion === 'string' && typeof state.createdAt === 'number'
          ? state
          : undefined;
      } catch {
        // A failed tag check is the expected answer to a tampered or foreign id: not found.
        return undefined;
      }
    },
  };
}

/**
 * The DPoP (RFC 9449) key of one server's tokens: the algorithm to sign with, a new key, and a stored
 * key brought back after a restart. Apart from the provider because the key must be exportable and
 * kept with the tokens bound to it, and because jose, needed only here, is loaded at the first DPoP
 * key rather than with the package.
 */
import {
  DPOP_SUPPORTED_ALGS,
  type DpopAlg,
  type DpopKeyPair,
  DpopSession,
  generateDpopKeyPair,
} from '@modelcontextprotocol/client';
import type { JWK } from 'jose';
import type { StoredDpopKey } from './token-store.js';

/**
 * The DPoP algorithm to sign with: the configured one, else the first the authorization server
 * advertises (`dpop_signing_alg_values_supported`, RFC 9449 §5.1) that the SDK can sign, else ES256.
 */
export function chooseDpopAlgorithm(configured: DpopAlg | undefined, advertised: unknown): DpopAlg {
  if (configured !== undefined) return configured;
  if (Array.isArray(advertised)) {
    const supported = advertised.find((alg): alg is DpopAlg =>
      (DPOP_SUPPORTED_ALGS as readonly unknown[]).includes(alg),
    );
    if (supported !== undefined) return supported;
  }
  return 'ES256';
}

/**
 * jose (~45 modules) at the first DPoP key rather than with the package: only servers that bind
 * tokens with DPoP need it, and every process that imports the transports would pay for it.
 */
function loadJose(): Promise<typeof import('jose')> {
  return import('jose');
}

/**
 * A new DPoP signing key and its session. The key is extractable so that it can be kept with the
 * tokens bound to it: a DPoP-bound refresh token is useless without its key after a restart.
 */
export async function createDpopKey(alg: DpopAlg): Promise<{ session: DpopSession; stored: StoredDpopKey }> {
  const keyPair = await generateDpopKeyPair({ alg, extractable: true });
  const { exportJWK } = await loadJose();
  const privateJwk = await exportJWK(keyPair.privateKey);
  const stored: StoredDpopKey = {
    alg,
    privateJwk: privateJwk as Record<string, unknown>,
    publicJwk: keyPair.publicJwk as Record<string, unknown>,
  };
  return { session: await DpopSession.create({ keyPair }), stored };
}

/** The DPoP session of a stored key (same key, so the same `cnf.jkt` as the tokens bound to it). */
export async function restoreDpopKey(stored: StoredDpopKey): Promise<DpopSession> {
  const alg = stored.alg as DpopAlg;
  const { calculateJwkThumbprint, importJWK } = await loadJose();
  const privateKey = await importJWK(stored.privateJwk as JWK, alg);
  const publicKey = await importJWK(stored.publicJwk as JWK, alg);
  const keyPair: DpopKeyPair = {
    privateKey: privateKey as DpopKeyPair['privateKey'],
    publicKey: publicKey as DpopKeyPair['publicKey'],
    publicJwk: stored.publicJwk as DpopKeyPair['publicJwk'],
    thumbprint: await calculateJwkThumbprint(stored.publicJwk as JWK, 'sha256'),
    alg,
  };
  return DpopSession.create({ keyPair });
}

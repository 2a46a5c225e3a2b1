import {
  DPOP_SUPPORTED_ALGS,
  type DpopAlg,
  type DpopKeyPair,
  DpopSession,
  generateDpopKeyPair,
} from '@modelcontextprotocol/client';
import { calculateJwkThumbprint, exportJWK, importJWK, type JWK } from 'jose';
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
 * A new DPoP signing key and its session. The key is extractable so that it can be kept with the
 * tokens bound to it: a DPoP-bound refresh token is useless without its key after a restart.
 */
export async function createDpopKey(alg: DpopAlg): Promise<{ session: DpopSession; stored: StoredDpopKey }> {
  const keyPair = await generateDpopKeyPair({ alg, extractable: true });
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

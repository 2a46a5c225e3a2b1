/**
 * The resource-server side of the MCP authorization spec for `serve()` over HTTP: protected-resource
 * metadata (RFC 9728) at `/.well-known/oauth-protected-resource[/path]`, `WWW-Authenticate`
 * challenges that point to it, token verification through a hook (JWT via JWKS and RFC 7662
 * introspection built in), and scopes per tool (403 `insufficient_scope`).
 */
import { createPublicKey, type JsonWebKey, type KeyObject, verify as verifySignature } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { bearerTokenOf } from './check-bearer-token.js';
import { failure, type GuardResult, type HttpFailure } from './http-failure.js';

/** What a verified access token grants. */
export interface VerifiedToken {
  /** Scopes the token carries. */
  scopes: string[];
  /** Who the token was issued to act for (`sub`). */
  subject?: string;
  /** The OAuth client that obtained it (`client_id` / `azp`). */
  clientId?: string;
  /** Expiry, seconds since the epoch (`exp`). */
  expiresAt?: number;
}

/** Checks an access token; rejects (any error) when it is not valid for this server. */
export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

/** OAuth protection of `serve()`'s HTTP endpoint (`auth: { type: 'oauth', ... }`). */
export interface OAuthResourceOptions {
  type: 'oauth';
  /** Issuer URLs of the authorization servers clients get tokens from (advertised in the metadata). */
  authorizationServers: string[];
  /** Verifies a bearer token: `createJwtVerifier`, `createIntrospectionVerifier` or your own. */
  verifyToken: TokenVerifier;
  /** This server's canonical resource URI (tokens must be meant for it). @default `http(s)://<Host header><path>` */
  resource?: string;
  /** Scopes every MCP request needs. @default [] */
  requiredScopes?: string[];
  /** Scopes a tool needs, by tool name; a call without them gets 403 `insufficient_scope`. */
  toolScopes?: Record<string, string[]>;
  /** Scopes listed in the metadata. @default the union of requiredScopes and toolScopes */
  scopesSupported?: string[];
  /** Human-readable name in the metadata. */
  resourceName?: string;
}

/** A metadata document to answer. */
export interface MetadataAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the HTTP server needs from the protection: pure checks returning results. */
export interface ProtectedResource {
  /** The metadata document for `pathname`, or undefined when it is not a metadata path. */
  metadata(request: IncomingMessage, pathname: string): MetadataAnswer | undefined;
  /** Verifies the request's bearer token; a failure carries the 401/403 challenge. */
  authenticate(request: IncomingMessage): Promise<GuardResult<{ token: VerifiedToken }>>;
  /** Refuses (403 `insufficient_scope`) when a `tools/call` in `body` needs scopes the token lacks. */
  allowsCalls(token: VerifiedToken, body: unknown, request: IncomingMessage): GuardResult;
}

const metadataPrefix = '/.well-known/oauth-protected-resource';

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** Builds the protection of an endpoint at `path` (e.g. `/mcp`). */
export function createProtectedResource(options: OAuthResourceOptions, path: string): ProtectedResource {
  if (!Array.isArray(options.authorizationServers) || options.authorizationServers.length === 0) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message:
        'serve: auth { type: "oauth" } needs authorizationServers: ["https://issuer.example"] (where clients get tokens).',
    });
  }
  if (typeof options.verifyToken !== 'function') {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message:
        'serve: auth { type: "oauth" } needs verifyToken (createJwtVerifier, createIntrospectionVerifier or your own).',
    });
  }
  const required = options.requiredScopes ?? [];
  const toolScopes = options.toolScopes ?? {};
  const scopesSupported = options.scopesSupported ?? [
    ...new Set([...required, ...Object.values(toolScopes).flat()]),
  ];
  const metadataPaths = new Set([`${metadataPrefix}${path === '/' ? '' : path}`, metadataPrefix]);

  const origin = (request: IncomingMessage) => {
    const secure = (request.socket as { encrypted?: boolean }).encrypted === true;
    return `${secure ? 'https' : 'http'}://${request.headers.host ?? 'localhost'}`;
  };
  const resourceOf = (request: IncomingMessage) => options.resource ?? `${origin(request)}${path}`;
  const metadataUrlOf = (request: IncomingMessage) =>
    `${origin(request)}${metadataPrefix}${path === '/' ? '' : path}`;

  const challenge = (
    request: IncomingMessage,
    status: 401 | 403,
    error: string,
    description: string,
    scopes: string[],
  ): HttpFailure => {
    const parts = [`error=${quote(error)}`, `error_description=${quote(description)}`];
    if (scopes.length > 0) parts.push(`scope=${quote(scopes.join(' '))}`);
    parts.push(`resource_metadata=${quote(metadataUrlOf(request))}`);
    return failure(status, JsonRpcErrorCode.Unauthorized, description, {
      headers: { 'www-authenticate': `Bearer ${parts.join(', ')}` },
      body: { error, error_description: description },
    });
  };

  return {
    metadata(request, pathname) {
      if (!metadataPaths.has(pathname)) return undefined;
      const body = JSON.stringify({
        resource: resourceOf(request),
        authorization_servers: options.authorizationServers,
        bearer_methods_supported: ['header'],
        ...(scopesSupported.length > 0 ? { scopes_supported: scopesSupported } : {}),
        ...(options.resourceName ? { resource_name: options.resourceName } : {}),
      });
      return {
        status: request.method === 'GET' || request.method === 'HEAD' ? 200 : 405,
        headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
        body,
      };
    },

    async authenticate(request) {
      const token = bearerTokenOf(request.headers.authorization);
      if (token === '') {
        return challenge(
          request,
          401,
          'invalid_token',
          'Send Authorization: Bearer <access token>.',
          required,
        );
      }
      let verified: VerifiedToken;
      try {
        verified = await options.verifyToken(token);
      } catch {
        // Why a token failed stays on the server: the answer must not help forge one.
        return challenge(request, 401, 'invalid_token', 'The access token is invalid or expired.', required);
      }
      if (verified.expiresAt !== undefined && verified.expiresAt * 1000 <= Date.now()) {
        return challenge(request, 401, 'invalid_token', 'The access token has expired.', required);
      }
      const missing = required.filter((scope) => !verified.scopes.includes(scope));
      if (missing.length > 0) {
        return challenge(
          request,
          403,
          'insufficient_scope',
          `This server needs the scopes: ${required.join(' ')}.`,
          [...new Set([...verified.scopes, ...required])],
        );
      }
      return { ok: true, token: verified };
    },

    allowsCalls(token, body, request) {
      const messages = Array.isArray(body) ? body : [body];
      const needed = new Set<string>();
      for (const message of messages) {
        if (typeof message !== 'object' || message === null) continue;
        const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
        if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
        for (const scope of toolScopes[params.name] ?? [])
          if (!token.scopes.includes(scope)) needed.add(scope);
      }
      if (needed.size === 0) return { ok: true };
      // Ask for what the token has plus what is missing, so a step-up does not lose scopes.
      return challenge(
        request,
        403,
        'insufficient_scope',
        `This tool needs the scopes: ${[...needed].join(' ')}.`,
        [...new Set([...required, ...token.scopes, ...needed])],
      );
    },
  };
}

/** Options of {@link createJwtVerifier}. */
export interface JwtVerifierOptions {
  /** The authorization server's JWKS URL (its `jwks_uri`). */
  jwksUrl: string;
  /** Expected `iss`. */
  issuer: string;
  /** Expected `aud` (this server's resource URI); a token for another audience is refused. */
  audience: string | string[];
  /** Accepted algorithms. @default ['RS256', 'ES256'] */
  algorithms?: string[];
  /** Allowed clock skew in seconds. @default 30 */
  clockToleranceSeconds?: number;
  /** How long fetched keys are kept before a refetch, ms (an unknown `kid` refetches at once). @default 600000 */
  cacheMs?: number;
}

const algorithmParameters: Record<string, { hash: string; kind: 'rsa' | 'pss' | 'ec' | 'ed' }> = {
  RS256: { hash: 'sha256', kind: 'rsa' },
  RS384: { hash: 'sha384', kind: 'rsa' },
  RS512: { hash: 'sha512', kind: 'rsa' },
  PS256: { hash: 'sha256', kind: 'pss' },
  PS384: { hash: 'sha384', kind: 'pss' },
  PS512: { hash: 'sha512', kind: 'pss' },
  ES256: { hash: 'sha256', kind: 'ec' },
  ES384: { hash: 'sha384', kind: 'ec' },
  ES512: { hash: 'sha512', kind: 'ec' },
  EdDSA: { hash: '', kind: 'ed' },
};

function decodeSegment(segment: string | undefined): Record<string, unknown> {
  if (!segment) throw new Error('malformed JWT');
  const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
  if (typeof value !== 'object' || value === null) throw new Error('malformed JWT');
  return value as Record<string, unknown>;
}

function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean);
  if (Array.isArray(claims.scp))
    return claims.scp.filter((scope): scope is string => typeof scope === 'string');
  if (typeof claims.scp === 'string') return claims.scp.split(' ').filter(Boolean);
  return [];
}

/** A verifier of JWT access tokens signed by keys of a JWKS (RS*, PS*, ES*, EdDSA), checking iss, aud, exp, nbf. */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const algorithms = new Set(options.algorithms ?? ['RS256', 'ES256']);
  const audiences = Array.isArray(options.audience) ? options.audience : [options.audience];
  const tolerance = options.clockToleranceSeconds ?? 30;
  const cacheMs = options.cacheMs ?? 600_000;
  let keys: Array<{ kid?: string; key: KeyObject }> = [];
  let fetchedAt = 0;
  let fetching: Promise<void> | undefined;

  const refresh = () => {
    fetching ??= (async () => {
      const response = await fetch(options.jwksUrl, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`JWKS answered HTTP ${response.status}`);
      const body = (await response.json()) as { keys?: JsonWebKey[] };
      keys = (body.keys ?? []).flatMap((jwk) => {
        try {
          const kid = typeof jwk.kid === 'string' ? jwk.kid : undefined;
          return [
            { ...(kid !== undefined ? { kid } : {}), key: createPublicKey({ key: jwk, format: 'jwk' }) },
          ];
        } catch {
          return [];
        }
      });
      fetchedAt = Date.now();
    })().finally(() => {
      fetching = undefined;
    });
    return fetching;
  };

  return async (token) => {
    const [headerPart, payloadPart, signaturePart] = token.split('.');
    if (signaturePart === undefined) throw new Error('not a JWT');
    const header = decodeSegment(headerPart);
    const alg = String(header.alg);
    const parameters = algorithmParameters[alg];
    if (!parameters || !algorithms.has(alg)) throw new Error(`algorithm ${alg} not accepted`);
    const kid = typeof header.kid === 'string' ? header.kid : undefined;
    const find = () => keys.filter((entry) => kid === undefined || entry.kid === kid);
    if (Date.now() - fetchedAt > cacheMs || find().length === 0) await refresh();
    const data = Buffer.from(`${headerPart}.${payloadPart}`);
    const signature = Buffer.from(signaturePart, 'base64url');
    const valid = find().some(({ key }) => {
      try {
        if (parameters.kind === 'ed') return verifySignature(null, data, key, signature);
        if (parameters.kind === 'ec')
          return verifySignature(parameters.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
        if (parameters.kind === 'pss') {
          return verifySignature(parameters.hash, data, { key, padding: 6, saltLength: -1 }, signature);
        }
        return verifySignature(parameters.hash, data, key, signature);
      } catch {
        return false;
      }
    });
    if (!valid) throw new Error('bad signature');
    const claims = decodeSegment(payloadPart);
    const now = Date.now() / 1000;
    if (claims.iss !== options.issuer) throw new Error('wrong issuer');
    const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audience.some((value) => typeof value === 'string' && audiences.includes(value)))
      throw new Error('wrong audience');
    if (typeof claims.exp !== 'number' || claims.exp + tolerance < now) throw new Error('expired');
    if (typeof claims.nbf === 'number' && claims.nbf - tolerance > now) throw new Error('not yet valid');
    const clientId =
      typeof claims.client_id === 'string'
        ? claims.client_id
        : typeof claims.azp === 'string'
          ? claims.azp
          : undefined;
    return {
      scopes: scopesOf(claims),
      ...(typeof claims.sub === 'string' ? { subject: claims.sub } : {}),
      ...(clientId !== undefined ? { clientId } : {}),
      expiresAt: claims.exp,
    };
  };
}

/** Options of {@link createIntrospectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's RFC 7662 introspection endpoint. */
  introspectionUrl: string;
  /** This resource server's client id at the authorization server. */
  clientId: string;
  /** Its secret (sent with HTTP Basic). Never logged. */
  clientSecret: string;
  /** Expected `aud` (this server's resource URI); when set, a token for another audience is refused. */
  audience?: string;
}

/** A verifier that asks the authorization server (RFC 7662 token introspection). */
export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const basic = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');
  return async (token) => {
    const response = await fetch(options.introspectionUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${basic}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`introspection answered HTTP ${response.status}`);
    const claims = (await response.json()) as Record<string, unknown>;
    if (claims.active !== true) throw new Error('inactive token');
    if (options.audience !== undefined) {
      const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (!audience.includes(options.audience)) throw new Error('wrong audience');
    }
    return {
      scopes: scopesOf(claims),
      ...(typeof claims.sub === 'string' ? { subject: claims.sub } : {}),
      ...(typeof claims.client_id === 'string' ? { clientId: claims.client_id } : {}),
      ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
    };
  };
}

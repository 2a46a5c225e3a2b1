/**
 * The `auth` block of a remote server's entry, as config files write it: its shape, and which of its
 * keys hold strings (credentials `${VAR}` expands in, values validation checks). The provider made
 * from it is `server-auth.ts`, outside `config/`: it imports this file, never the other way.
 */
import type { OAuthGrantType } from '@switchboard/transports';

/** DPoP signing algorithms a config may name (RFC 9449 §11.6: asymmetric only). */
export const dpopAlgorithms = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
] as const;

/** A DPoP signing algorithm of the config. */
export type DpopAlgorithm = (typeof dpopAlgorithms)[number];

/** The enterprise identity provider of `grantType: "enterprise_managed"` (SEP-990, ID-JAG). */
export interface ServerAuthIdentityProviderConfig {
  /** The IdP's issuer URL (its token endpoint is discovered). One of `issuer`, `tokenEndpoint`. */
  issuer?: string;
  /** The IdP's token endpoint. */
  tokenEndpoint?: string;
  /** This client's id at the IdP. */
  clientId: string;
  /** This client's secret at the IdP (`${VAR}` expands). Never logged. */
  clientSecret?: string;
  /** The user's ID token from the IdP (`${VAR}` expands). Never logged. One of `idToken`, `idTokenFile`. */
  idToken?: string;
  /** A file holding the user's ID token, read at every token request (it may be refreshed in place). */
  idTokenFile?: string;
}

/** The `auth` block of a remote server's entry. `false` turns OAuth off for the server. */
export interface ServerAuthConfig {
  /**
   * How this client gets its tokens: `authorization_code` (sign in with `switchboard auth <server>`),
   * `client_credentials` (headless), `workload_identity` (the workload's identity token, RFC 7523
   * JWT bearer) or `enterprise_managed` (an ID-JAG from the enterprise IdP). @default 'authorization_code'
   */
  grantType?: OAuthGrantType;
  /** A pre-registered client id (`${VAR}` expands). Without one: a client-id metadata document or dynamic registration. */
  clientId?: string;
  /** The pre-registered client's secret (`${VAR}` expands). Never logged. */
  clientSecret?: string;
  /**
   * The issuer of the authorization server the pre-registered client belongs to; its credentials
   * go to no other (SEP-2352). @default the first one it is used with, remembered in the token store
   */
  issuer?: string;
  /** HTTPS URL of this client's metadata document, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when the server names none. */
  scopes?: string[];
  /** PEM private key for `private_key_jwt` (`${VAR}` expands). Never logged. */
  privateKey?: string;
  /** Algorithm of `privateKey`. @default 'RS256' */
  signingAlgorithm?: string;
  /** `workload_identity`: the workload's identity JWT (`${VAR}` expands). Never logged. One of `assertion`, `assertionFile`. */
  assertion?: string;
  /** `workload_identity`: a file holding the workload's identity JWT (e.g. a projected service-account token), read at every token request. */
  assertionFile?: string;
  /** `enterprise_managed`: the enterprise identity provider. */
  identityProvider?: ServerAuthIdentityProviderConfig;
  /** DPoP (RFC 9449): sender-constrained tokens; `{ "alg": "ES384" }` picks the algorithm. @default false */
  dpop?: boolean | { alg?: DpopAlgorithm };
  /** Port of the loopback redirect during a sign-in. @default the one registered before, else a free one */
  redirectPort?: number;
}

/** The keys of an `auth` block that hold one string. */
export const authStringKeys = [
  'clientId',
  'clientSecret',
  'issuer',
  'clientMetadataUrl',
  'privateKey',
  'signingAlgorithm',
  'assertion',
  'assertionFile',
] as const;

/** The keys of `auth.identityProvider` that hold one string. */
export const identityProviderStringKeys = [
  'issuer',
  'tokenEndpoint',
  'clientId',
  'clientSecret',
  'idToken',
  'idTokenFile',
] as const;

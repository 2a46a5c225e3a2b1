/**
 * Codes of the OAuth errors this package raises (`SwitchboardError.code`). Local errors: they
 * never cross the wire. Match on these, never on message text.
 */
export const AuthorizationErrorCode = {
  /** A person must sign in (`switchboard auth <server>`) and nobody can here (no `openUrl`). */
  NeedsAuth: 'NEEDS_AUTH',
  /** The authorization flow failed: discovery, registration, a token request, an assertion. */
  AuthFailed: 'AUTH_FAILED',
  /** No sign-in arrived at the loopback redirect in time. */
  AuthTimeout: 'AUTH_TIMEOUT',
  /**
   * An authorization server's identity did not check out: the `issuer` of its metadata is not
   * the URL it was fetched for (RFC 8414 §3.3), or the sign-in redirect's `iss` is not its issuer
   * (RFC 9207: a possible mix-up attack). Nothing was sent to it.
   */
  IssuerMismatch: 'AUTH_ISSUER_MISMATCH',
  /**
   * The server now names another authorization server than the one a configured credential is
   * bound to (SEP-2352); the credential was not sent to the new one.
   */
  AuthorizationServerChanged: 'AUTH_SERVER_CHANGED',
  /** The token store could not be read or written. */
  TokenStoreError: 'TOKEN_STORE_ERROR',
} as const;

/** One of the {@link AuthorizationErrorCode} values. */
export type AuthorizationErrorCode = (typeof AuthorizationErrorCode)[keyof typeof AuthorizationErrorCode];

/**
 * Where the secrets of the grants without a person come from: a value given once, or a function read
 * anew at every token request, because workload tokens and ID tokens rotate (a projected
 * service-account file, a vault). The OAuth provider and the ID-JAG exchange read them through the
 * two readers here, and the JWT-bearer grant describes its token request with `AssertionContext`.
 */

/** What an assertion is minted or chosen for: the authorization server and the protected resource. */
export interface AssertionContext {
  /** The issuer of the MCP server's authorization server (the assertion's audience). */
  issuer: string;
  /** The resource indicator of the MCP server (RFC 8707), when its metadata names one. */
  resource?: string;
  /** The scopes the token request asks for. */
  scope?: string;
}

/** A secret value given as is, or a function that returns a fresh one each time (a rotated file, a vault). */
export type SecretSource = string | (() => string | Promise<string>);

/**
 * Where the assertion of an RFC 7523 JWT-bearer token request comes from: a workload identity
 * token (SEP-1933, WIF) as is, or a function that returns a fresh one for the authorization
 * server and resource at hand. Read anew for every token request: workload tokens rotate.
 */
export type AssertionSource = string | ((context: AssertionContext) => string | Promise<string>);

/** Reads a {@link SecretSource} (surrounding whitespace, such as a file's final newline, dropped). */
export async function readSecret(source: SecretSource): Promise<string> {
  return (typeof source === 'string' ? source : await source()).trim();
}

/** Reads an {@link AssertionSource} for one token request. */
export async function readAssertion(source: AssertionSource, context: AssertionContext): Promise<string> {
  return (typeof source === 'string' ? source : await source(context)).trim();
}

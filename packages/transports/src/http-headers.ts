/**
 * The headers every HTTP-based transport (Streamable HTTP, legacy SSE, the WebSocket upgrade) sends
 * with each request, built one way: the configured headers with lower-cased names, so that a later
 * lookup or override finds them whatever case the config used, and `bearerToken` as `Authorization`.
 */

/** Static headers plus `Authorization: Bearer <token>` when a token is given. */
export function createStaticHeaders(
  headers: Record<string, string> | undefined,
  bearerToken: string | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) result[key.toLowerCase()] = value;
  if (bearerToken !== undefined) result.authorization = `Bearer ${bearerToken}`;
  return result;
}

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

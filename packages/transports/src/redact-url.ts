/**
 * A URL fit for logs and error messages: no user info, and query values hidden, because some
 * servers take API keys as query parameters.
 */
export function redactUrl(url: string | URL): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, '…');
    return parsed.toString();
  } catch {
    return '<invalid URL>';
  }
}

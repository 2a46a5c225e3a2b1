/**
 * One line saying why something failed, for messages built around another error. Never empty: the
 * doctor once printed "could not be loaded (), and neither could the fallback:  (…)" because the
 * errors it quoted (sharp's install error) began with a blank line.
 */

/** The first non-blank line of `error`'s message (at most 300 characters), else its code or name. */
export function errorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const line = message
    .split('\n')
    .map((part) => part.trim())
    .find((part) => part.length > 0);
  if (line !== undefined) return line.length > 300 ? `${line.slice(0, 299)}…` : line;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code !== '') return code;
  if (error instanceof Error && error.name) return `${error.name} without a message`;
  return `an error without a message (${String(error)})`;
}

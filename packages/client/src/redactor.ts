/**
 * Secrets (env values, header values, tokens in URLs) must never reach logs or error messages.
 * A redactor knows the secret strings of one server and masks them wherever they appear.
 */

/** Masks known secret values in text. */
export interface Redactor {
  /** Returns `text` with every known secret replaced by `[REDACTED]`. */
  redact(text: string): string;
  /** Adds more secret values (ignored when too short to be meaningful). */
  add(values: Iterable<string>): void;
}

const mask = '[REDACTED]';
// Values this short ("1", "on", "true") are settings, not secrets, and masking them would garble text.
const minimumSecretLength = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Creates a redactor for the given secret values. */
export function createRedactor(values: Iterable<string> = []): Redactor {
  const secrets = new Set<string>();
  let pattern: RegExp | undefined;
  const add = (more: Iterable<string>): void => {
    for (const value of more) {
      if (typeof value === 'string' && value.length >= minimumSecretLength) secrets.add(value);
    }
    // Longest first, so a secret containing another is masked whole.
    const sorted = [...secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    pattern = sorted.length > 0 ? new RegExp(sorted.join('|'), 'g') : undefined;
  };
  add(values);
  return {
    redact: (text) =>
      pattern === undefined || typeof text !== 'string' ? text : text.replace(pattern, mask),
    add,
  };
}

const tokenLike = /(bearer|basic|token|key|secret|password|auth)/i;

/** The secret values of a server entry: env values, header values, URL credentials and token-like query values. */
export function collectSecrets(entry: {
  env?: Record<string, string> | undefined;
  headers?: Record<string, string> | undefined;
  url?: string | undefined;
}): string[] {
  const found: string[] = [];
  for (const value of Object.values(entry.env ?? {})) found.push(value);
  for (const value of Object.values(entry.headers ?? {})) {
    found.push(value);
    // "Bearer abc": the token alone may be echoed back without its scheme.
    const [, token] = /^\s*\w+\s+(.+)$/.exec(value) ?? [];
    if (token) found.push(token);
  }
  if (entry.url) {
    try {
      const url = new URL(entry.url);
      if (url.username) found.push(decodeURIComponent(url.username));
      if (url.password) found.push(decodeURIComponent(url.password));
      for (const [name, value] of url.searchParams) if (tokenLike.test(name)) found.push(value);
    } catch {
      // An invalid URL is reported elsewhere; nothing to collect.
    }
  }
  return found;
}

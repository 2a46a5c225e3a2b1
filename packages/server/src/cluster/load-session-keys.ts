/**
 * The session key file: one 32-byte key per line, as base64 (44 characters) or 64 hex digits;
 * `#` comments and blank lines are ignored. The first key seals new session ids, every key opens
 * them, so a rotation is: add the new key on top, deploy, later remove the old one.
 */
import { readFileSync } from 'node:fs';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';

/** Parses the text of a key file; `source` names it in errors. */
export function parseSessionKeys(text: string, source: string): Buffer[] {
  const keys: Buffer[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const value = line.replace(/#.*$/, '').trim();
    if (value === '') continue;
    const key = /^[0-9a-fA-F]{64}$/.test(value)
      ? Buffer.from(value, 'hex')
      : /^[A-Za-z0-9+/_-]{43}=?$/.test(value)
        ? Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64')
        : undefined;
    if (key === undefined || key.length !== 32) {
      // The key itself is never echoed: a half-pasted key is still a secret.
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message: `Session key file ${source}, line ${index + 1}: not a 32-byte key (${value.length} characters). Write one key per line as base64 (openssl rand -base64 32) or 64 hex digits (openssl rand -hex 32).`,
        context: { source, line: index + 1 },
      });
    }
    keys.push(key);
  }
  if (keys.length === 0) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message: `Session key file ${source} holds no key; add one line with a key from: openssl rand -base64 32.`,
      context: { source },
    });
  }
  return keys;
}

/** Reads the session keys of the file at `path` (first seals, all open). */
export function loadSessionKeys(path: string): Buffer[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message: `Cannot read the session key file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Check the path and its permissions.`,
      context: { source: path },
      cause: error,
    });
  }
  return parseSessionKeys(text, path);
}

/**
 * Every secret value of one server entry, in one list: what a connection's redactor masks in its
 * logs and errors, and what anything showing the entry or its traffic (an inspector) masks too.
 */

import type { ServerEntry } from './config/server-entry.js';
import { collectSecrets } from './redactor.js';
import { authSecrets } from './server-auth.js';

/** The entry's env values, header values (and their tokens), URL credentials and OAuth secrets. */
export function serverSecrets(entry: ServerEntry): string[] {
  return [...collectSecrets(entry), ...authSecrets(entry)];
}

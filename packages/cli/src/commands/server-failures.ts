/** Prints, for each server that failed to connect, its error and what to try. */
import type { ServerStatus } from '@switchboard/client';
import type { CommandContext } from '../cli-command.js';
import { createPalette } from '../cli-io.js';
import { showsLogLevel } from '../cli-log-level.js';

/** Writes one warning per failed server to stderr (none under `--quiet`); returns how many failed. */
export function reportFailedServers(context: CommandContext, status: Record<string, ServerStatus>): number {
  const palette = createPalette(context.io.stderr, context.io.env);
  const shown = showsLogLevel(context.io.env, 'warn');
  let failed = 0;
  for (const [name, entry] of Object.entries(status)) {
    if (entry.state !== 'failed' && entry.state !== 'needs-auth') continue;
    failed++;
    if (!shown) continue;
    context.io.stderr.write(
      `${palette.yellow('warning')}: server '${name}' ${entry.state === 'needs-auth' ? 'needs sign-in' : 'failed'}: ${
        entry.lastError?.message ?? 'unknown error'
      }\n  Try 'switchboard doctor' for details, or 'switchboard inspect ${name}'.\n`,
    );
  }
  return failed;
}

/**
 * How much the CLI says on stderr. One setting, the `SWITCHBOARD_LOG` variable, which `--verbose`
 * and `--quiet` set for the run (a flag wins over the variable): every part that writes to stderr —
 * the logger handed to the packages, the CLI's own warnings and hints, a call's progress — reads it
 * from the command's environment, so a child process started with that environment agrees.
 */

/** The levels, least to most: `silent` says nothing, `error` only errors (`--quiet`), `debug` everything (`--verbose`). */
export type CliLogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

/** The variable the level lives in. */
export const logLevelVariable = 'SWITCHBOARD_LOG';

const levels: readonly CliLogLevel[] = ['silent', 'error', 'warn', 'info', 'debug'];

/** The level `env` asks for; `warn` when unset or not a level. */
export function cliLogLevelOf(env: Record<string, string | undefined>): CliLogLevel {
  const value = env[logLevelVariable]?.toLowerCase();
  return levels.find((level) => level === value) ?? 'warn';
}

/** Whether a line of `level` is shown under the level `env` asks for. */
export function showsLogLevel(
  env: Record<string, string | undefined>,
  level: Exclude<CliLogLevel, 'silent'>,
): boolean {
  return levels.indexOf(level) <= levels.indexOf(cliLogLevelOf(env));
}

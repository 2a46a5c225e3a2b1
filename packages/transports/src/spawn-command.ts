/**
 * How a stdio server's command line is started on each platform. On Windows the `.cmd` shims that
 * `npx` and `uvx` are cannot be started directly, and a shell given the command line unquoted would
 * run parts of an argument as commands, so they go through `cmd.exe` with every argument quoted here.
 */

/** What to hand to `child_process.spawn` for a command line on a platform. */
export interface SpawnCommand {
  /** The executable actually started. */
  file: string;
  /** Its arguments. */
  args: string[];
  /** Pass `args` to Windows as is (cmd.exe quoting was done here). */
  windowsVerbatimArguments: boolean;
}

// cmd.exe metacharacters that must be escaped with ^ inside a /c command line.
const cmdMetaCharacters = /([()\][%!^"`<>&|;, *?])/g;

/** Quotes one argument for CreateProcess, then escapes it for cmd.exe. */
function quoteForCmd(argument: string): string {
  // CreateProcess rules: backslashes before a quote are doubled, the quote is escaped.
  let quoted = `"${argument.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  quoted = quoted.replace(cmdMetaCharacters, '^$1');
  return quoted;
}

/**
 * Resolves how to start `command` with `args`. On Windows, `npx`, `uvx` and other `.cmd`/`.bat`
 * shims are not executables: CreateProcess cannot start them, so anything that is not an `.exe`
 * goes through `cmd.exe /d /s /c` with each argument quoted and escaped for cmd.exe.
 */
export function resolveSpawnCommand(
  command: string,
  args: readonly string[],
  platform: NodeJS.Platform = process.platform,
  comSpec: string = process.env.ComSpec ?? 'cmd.exe',
): SpawnCommand {
  if (platform !== 'win32' || /\.(exe|com)$/i.test(command)) {
    return { file: command, args: [...args], windowsVerbatimArguments: false };
  }
  const commandLine = [command, ...args].map(quoteForCmd).join(' ');
  return { file: comSpec, args: ['/d', '/s', '/c', `"${commandLine}"`], windowsVerbatimArguments: true };
}

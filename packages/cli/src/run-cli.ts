/**
 * The `switchboard` command line: parses arguments, dispatches to one command, and turns errors
 * into messages and exit codes (0 ok, 1 failure, 2 usage). Every command is a few calls into the
 * packages, so anything it does can be done in code.
 *
 * This file and what it imports stay small: the command list and a command's `--help` come from
 * the commands' specs, and only the command that runs loads its module (and the packages behind it).
 */
import { parseArgs } from 'node:util';
import type { CliCommand, GlobalOptions } from './cli-command.js';
import { type CliIo, createPalette, type Palette } from './cli-io.js';
import { logLevelVariable } from './cli-log-level.js';
import { ExitCode } from './exit-code.js';
import { globalHelp, globalOptions } from './global-options.js';
import { didYouMean } from './suggest.js';

function overview(commands: CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'switchboard — connect, inspect, call, select and serve MCP tools',
    '',
    'Usage: switchboard <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    globalHelp,
    '  -V, --version   print the version of switchboard',
    '',
    "Run 'switchboard <command> --help' for a command's options, 'switchboard completion --help' for shell completion.",
  ].join('\n');
}

/** A global flag given before the command name (`switchboard --verbose tools`). */
function isLeadingGlobalFlag(argument: string): boolean {
  const flag = argument.split('=')[0] ?? argument;
  return flag === '-q' || (flag.startsWith('--') && flag.slice(2) in globalOptions && flag !== '--help');
}

/**
 * Splits `head` into the global flags before the command name, the name and what follows it. The
 * flags are parsed with the command's own later, so that both places mean the same.
 */
function splitCommandLine(head: string[]): { leading: string[]; name: string | undefined; after: string[] } {
  const leading: string[] = [];
  let index = 0;
  while (index < head.length && isLeadingGlobalFlag(head[index] ?? '')) {
    const flag = head[index++] ?? '';
    leading.push(flag);
    // `--config FILE`: the value is the next argument.
    if (flag === '--config' && index < head.length) leading.push(head[index++] ?? '');
  }
  return { leading, name: head[index], after: head.slice(index + 1) };
}

/** The environment the command runs with: `--verbose`, `--quiet` and `--no-color` win over the variables. */
function environmentOf(io: CliIo, values: Record<string, unknown>): CliIo['env'] {
  const overrides: Record<string, string> = {};
  if (values.verbose === true) overrides[logLevelVariable] = 'debug';
  if (values.quiet === true) overrides[logLevelVariable] = 'error';
  if (values['no-color'] === true) overrides.NO_COLOR = '1';
  return Object.keys(overrides).length === 0 ? io.env : { ...io.env, ...overrides };
}

function writeUsageError(io: CliIo, palette: Palette, message: string, help: string): number {
  io.stderr.write(`${palette.red('error')}: ${message}\n\n${help}\n`);
  return ExitCode.usage;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[], io: CliIo, commands: CliCommand[]): Promise<number> {
  const dashDash = argv.indexOf('--');
  const head = dashDash === -1 ? argv : argv.slice(0, dashDash);
  const rest = dashDash === -1 ? [] : argv.slice(dashDash + 1);
  const { leading, name, after } = splitCommandLine(head);
  // Before the flags are parsed (an unknown command is not), `--no-color` anywhere counts.
  let palette = createPalette(io.stderr, head.includes('--no-color') ? { ...io.env, NO_COLOR: '1' } : io.env);

  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${overview(commands)}\n`);
    return name ? ExitCode.ok : ExitCode.usage;
  }
  if (name === '--version' || name === '-v' || name === '-V') {
    // Loaded here only: the one run that needs the cli's package.json.
    const { cliVersion } = await import('./cli-version.js');
    io.stdout.write(`${cliVersion()}\n`);
    return ExitCode.ok;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    const what = name.startsWith('-')
      ? `unknown option '${name}' before the command`
      : `unknown command '${name}'`;
    io.stderr.write(
      `${palette.red('error')}: ${what}.${didYouMean(
        name,
        commands.map((candidate) => candidate.name),
      )} Run 'switchboard --help' for the list.\n`,
    );
    return ExitCode.usage;
  }

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...leading, ...after],
      options: { ...globalOptions, ...(command.options ?? {}) },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return writeUsageError(
      io,
      palette,
      (error as Error).message.replace(/^TypeError \[\w+\]: /, ''),
      command.help,
    );
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (values.help) {
    io.stdout.write(`${command.help}\n\n${globalHelp}\n`);
    return ExitCode.ok;
  }
  if (values.verbose === true && values.quiet === true) {
    return writeUsageError(io, palette, '--verbose and --quiet cannot be used together.', command.help);
  }
  const commandIo: CliIo = { ...io, env: environmentOf(io, values) };
  palette = createPalette(io.stderr, commandIo.env);
  const global: GlobalOptions = {
    json: values.json === true,
    ...(typeof values.config === 'string' ? { config: values.config } : {}),
  };
  try {
    return await command.run({
      io: commandIo,
      positionals: parsed.positionals,
      rest,
      values,
      global,
      commands,
    });
  } catch (error) {
    // Loaded on the way out: the command that threw a UsageError has loaded it already.
    const { UsageError } = await import('./cli-error.js');
    if (error instanceof UsageError) return writeUsageError(io, palette, error.message, command.help);
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`${palette.red('error')}: ${message}\n`);
    return ExitCode.failure;
  }
}

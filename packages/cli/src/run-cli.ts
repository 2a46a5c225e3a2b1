/**
 * The `switchboard` command line: parses arguments, dispatches to one command, and turns errors
 * into messages and exit codes (0 ok, 1 failure, 2 usage). Every command is a few calls into the
 * packages, so anything it does can be done in code.
 */
import { parseArgs } from 'node:util';
import { SwitchboardError } from '@switchboard/core';
import type { CliCommand, GlobalOptions } from './cli-command.js';
import { ExitCode, UsageError } from './cli-error.js';
import { type CliIo, createPalette } from './cli-io.js';
import { didYouMean } from './suggest.js';

const globalOptions = {
  config: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const globalHelp = `Global options:
  --config FILE   use FILE instead of discovering ~/.switchboard/mcp.json and .switchboard/mcp.json
  --json          machine-readable output
  -h, --help      help for a command`;

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
    '',
    "Run 'switchboard <command> --help' for a command's options.",
  ].join('\n');
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[], io: CliIo, commands: CliCommand[]): Promise<number> {
  const palette = createPalette(io.stderr, io.env);
  const dashDash = argv.indexOf('--');
  const head = dashDash === -1 ? argv : argv.slice(0, dashDash);
  const rest = dashDash === -1 ? [] : argv.slice(dashDash + 1);
  const [name, ...afterName] = head;

  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${overview(commands)}\n`);
    return name ? ExitCode.ok : ExitCode.usage;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${process.env.npm_package_version ?? 'switchboard'}\n`);
    return ExitCode.ok;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr.write(
      `${palette.red('error')}: unknown command '${name}'.${didYouMean(
        name,
        commands.map((candidate) => candidate.name),
      )} Run 'switchboard --help' for the list.\n`,
    );
    return ExitCode.usage;
  }

  try {
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({
        args: afterName,
        options: { ...globalOptions, ...(command.options ?? {}) },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new UsageError((error as Error).message.replace(/^TypeError \[\w+\]: /, ''));
    }
    const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
    if (values.help) {
      io.stdout.write(`${command.help}\n\n${globalHelp}\n`);
      return ExitCode.ok;
    }
    const global: GlobalOptions = {
      json: values.json === true,
      ...(typeof values.config === 'string' ? { config: values.config } : {}),
    };
    return await command.run({ io, positionals: parsed.positionals, rest, values, global });
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${palette.red('error')}: ${error.message}\n\n${command.help}\n`);
      return ExitCode.usage;
    }
    const message = SwitchboardError.isInstance(error)
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
    io.stderr.write(`${palette.red('error')}: ${message}\n`);
    return ExitCode.failure;
  }
}

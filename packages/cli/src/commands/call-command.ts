/** `switchboard call <tool> --args '<json>'`: validates, asks for approval, calls, prints the result. */
import { quarantinedError } from '@switchboard/client';
import { createToolName, SwitchboardError } from '@switchboard/core';
import { createCallProgress } from '../call-progress.js';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { createPalette } from '../cli-io.js';
import { connectServers, loadCliConfig, printJson } from '../cli-session.js';
import { missingToolReason } from '../missing-tool-reason.js';
import { parseJsonArgument } from '../parse-json-argument.js';
import { didYouMean } from '../suggest.js';

/** Runs `switchboard call` (its flags and help: `callCommandSpec`). */
export async function runCallCommand(context: CommandContext): Promise<number> {
  const [toolName, ...extra] = context.positionals;
  if (!toolName) throw new UsageError('call needs a tool name.');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}' (arguments go in --args).`);
  const args =
    typeof context.values.args === 'string' ? parseJsonArgument(context.values.args, '--args') : {};
  const timeoutMs = context.values.timeout === undefined ? undefined : Number(context.values.timeout);
  if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError('--timeout takes milliseconds > 0.');

  const config = await loadCliConfig(context);
  const palette = createPalette(context.io.stderr, context.io.env);
  const reporter = createCallProgress(context.io);
  const connection = await connectServers(context, config.mcpServers, {
    onLog: (server, message) => reporter.log(server, message),
    approve: async (prompt) => {
      if (context.values.yes === true) return true;
      if (!context.io.confirm) {
        context.io.stderr.write(
          `${palette.yellow('approval')}: '${prompt.name}' needs approval (${prompt.reason}); stdin is not a terminal, so pass --yes to run it.\n`,
        );
        return false;
      }
      return context.io.confirm(
        `Run '${prompt.name}' on server '${prompt.server}' with ${JSON.stringify(prompt.args)}? (${prompt.reason})`,
      );
    },
  });
  try {
    if (!connection.registry.has(toolName)) {
      // A quarantined tool is kept out of the registry: say why it is refused, not that it is unknown.
      const quarantined = connection.trust.verdicts().find((verdict) => {
        const prefix = config.mcpServers[verdict.server]?.prefix;
        const name = createToolName({
          server: verdict.server,
          tool: verdict.tool,
          ...(prefix === undefined ? {} : { prefix }),
        });
        return !verdict.usable && name === toolName;
      });
      if (quarantined !== undefined) throw quarantinedError(quarantined);
      const reason = missingToolReason(toolName, connection, config.mcpServers);
      const names = connection.registry.list().map((tool) => tool.name);
      const failed = Object.entries(connection.status())
        .filter(([, status]) => status.state === 'failed')
        .map(([name]) => name);
      throw new SwitchboardError({
        code: 'TOOL_NOT_FOUND',
        message: `unknown tool '${toolName}'.${reason ? ` ${reason}` : didYouMean(toolName, names)}${
          failed.length ? ` (servers that failed to connect: ${failed.join(', ')})` : ''
        } Run 'switchboard tools' for the list.`,
        context: { tool: toolName },
      });
    }
    const result = (await connection
      .callTool(toolName, args, {
        ...(timeoutMs ? { timeoutMs } : {}),
        onProgress: (update) => reporter.progress(update),
      })
      .finally(() => reporter.done())) as { status?: string; message?: string; error?: string };
    if (context.global.json) printJson(context, result);
    else if (result.status === 'error')
      context.io.stderr.write(`${result.error ?? JSON.stringify(result)}\n`);
    else context.io.stdout.write(`${result.message ?? JSON.stringify(result, null, 2)}\n`);
    return result.status === 'error' ? ExitCode.failure : ExitCode.ok;
  } finally {
    await connection.close();
  }
}

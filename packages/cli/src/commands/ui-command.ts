/** `switchboard ui`: serves the inspector page until interrupted. */
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { cliLogger } from '../cli-session.js';
import { createUiServer } from '../inspector/ui-server.js';
import { createUiSession } from '../inspector/ui-session.js';
import { openInBrowser } from '../open-in-browser.js';

/** Runs `switchboard ui` (its flags and help: `uiCommandSpec`). */
export async function runUiCommand(context: CommandContext): Promise<number> {
  if (context.positionals.length > 0) {
    throw new UsageError(`unexpected argument '${context.positionals[0]}' (ui takes only flags).`);
  }
  const port = context.values.port === undefined ? 0 : Number(context.values.port);
  if (!(Number.isInteger(port) && port >= 0 && port < 65536)) {
    throw new UsageError('--port takes a port number (0-65535; 0 picks a free one).');
  }
  const open = context.values['no-open'] !== true;

  const session = await createUiSession({ context, ...(open ? { openUrl: openInBrowser } : {}) });
  let server: Awaited<ReturnType<typeof createUiServer>>;
  try {
    server = await createUiServer({ session, port, logger: cliLogger(context) });
  } catch (error) {
    await session.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(
        `port ${port} on 127.0.0.1 is in use; pick another with --port, or --port 0 for a free one.`,
      );
    }
    throw error;
  }
  // stdout carries the URL alone, so a script can read it; what a person reads goes to stderr.
  context.io.stdout.write(`${server.url}\n`);
  context.io.stderr.write(
    `switchboard ui: serving ${session.servers().length} servers on ${server.origin}${open ? ' (opening the browser)' : ''}; Ctrl-C stops it.\n`,
  );
  if (!server.pageBuilt) {
    context.io.stderr.write(
      'switchboard ui: warning: the page is not built (no dist/ui/index.html); the API answers, the page does not. Build it with: pnpm --filter @switchboard/cli build\n',
    );
  }
  if (open) openInBrowser(server.url);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  await session.close();
  return ExitCode.ok;
}

/** `switchboard ui`: serves the inspector page until interrupted. */
import { startInspector } from '@switchboard/inspector';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { cliInspectorHost } from '../cli-inspector-host.js';
import { cliLogger } from '../cli-session.js';
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

  let inspector: Awaited<ReturnType<typeof startInspector>>;
  try {
    inspector = await startInspector({
      host: await cliInspectorHost(context),
      port,
      logger: cliLogger(context),
      ...(open ? { openUrl: openInBrowser } : {}),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(
        `port ${port} on 127.0.0.1 is in use; pick another with --port, or --port 0 for a free one.`,
      );
    }
    throw error;
  }
  // stdout carries the URL alone, so a script can read it; what a person reads goes to stderr.
  context.io.stdout.write(`${inspector.url}\n`);
  context.io.stderr.write(
    `switchboard ui: serving ${inspector.servers().length} servers on ${inspector.origin}${open ? ' (opening the browser)' : ''}; Ctrl-C stops it.\n`,
  );
  if (!inspector.pageBuilt) {
    context.io.stderr.write(
      'switchboard ui: warning: the page is not built (no dist/page/index.html in @switchboard/inspector); the API answers, the page does not. Build it with: pnpm --filter @switchboard/inspector build\n',
    );
  }
  if (open) openInBrowser(inspector.url);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await inspector.close();
  return ExitCode.ok;
}

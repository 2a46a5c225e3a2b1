/**
 * Opens a URL in the default browser (`open`, `start` or `xdg-open`). Never fails: where no
 * browser can be started the URL is printed anyway, and that is the way in.
 */
import { spawn } from 'node:child_process';

/** Opens `url`; a missing opener or browser is ignored. */
export function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser here: the printed URL is the way.
  }
}

/**
 * The config entry of a server added in the page: a URL (a remote server, such as a gateway) or a
 * command (a local one), nothing else, checked before the session takes it.
 */
import type { ServerConfig } from '@switchboard/client';
import type { UiAddServerRequest } from './ui-api.js';
import { UiError, UiErrorCode } from './ui-error.js';

/** Page servers' names: what a config key may be, so a page server could be written to one later. */
const serverName = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Checks the name of a server added in the page; throws a `BAD_REQUEST` saying what a name may be. */
export function checkPageServerName(name: string): void {
  if (serverName.test(name)) return;
  throw new UiError({
    code: UiErrorCode.BadRequest,
    message: `A server name is 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit; "${name}" is not.`,
    context: { server: name },
  });
}

/** The config entry of a server added in the page: a URL or a command, nothing else. */
export function pageServerEntry(request: UiAddServerRequest): ServerConfig {
  const hasUrl = typeof request.url === 'string' && request.url !== '';
  const hasCommand = typeof request.command === 'string' && request.command !== '';
  if (hasUrl === hasCommand) {
    throw new UiError({
      code: UiErrorCode.BadRequest,
      message: `Server "${request.name}" needs either "url" (a remote server, e.g. a gateway's http://127.0.0.1:8080/mcp) or "command" (a local one), not ${hasUrl ? 'both' : 'neither'}.`,
      context: { server: request.name },
    });
  }
  if (hasUrl) {
    try {
      new URL(request.url as string);
    } catch {
      throw new UiError({
        code: UiErrorCode.BadRequest,
        message: `Server "${request.name}": "url" is not a valid URL; write it in full, e.g. http://127.0.0.1:8080/mcp.`,
        context: { server: request.name },
      });
    }
    return { url: request.url as string, ...(request.headers ? { headers: { ...request.headers } } : {}) };
  }
  return {
    command: request.command as string,
    ...(request.args ? { args: [...request.args] } : {}),
    ...(request.env ? { env: { ...request.env } } : {}),
  };
}

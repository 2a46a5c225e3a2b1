/**
 * `headersHelper`: a shell command run at each connect to a remote server whose stdout is a JSON
 * object of header names to values (Claude Code's key of the same name), merged over the entry's
 * static `headers`: the way to send short-lived tokens minted by another tool. Its output is a
 * secret: it is added to the connection's redactor and never logged, and a failing helper is a
 * `HEADERS_HELPER_FAILED` error naming the server, the command and its exit status, never what it
 * printed (stdout or stderr may hold the token).
 */
import { exec } from 'node:child_process';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { ServerEntry } from './config/server-entry.js';
import type { Redactor } from './redactor.js';

/** How long a helper may run. Claude Code allows the same. */
const helperTimeoutMs = 10_000;
/** More output than any header set needs: a runaway helper is stopped, not buffered. */
const helperMaxBytes = 1 << 20;

function helperError(name: string, command: string, problem: string, context: Record<string, unknown> = {}) {
  return new ClientError({
    code: ClientErrorCode.HeadersHelperFailed,
    message: `The headersHelper of MCP server "${name}" (${command}) ${problem} Fix the command (it must print a JSON object such as {"Authorization": "Bearer …"}), or remove headersHelper.`,
    context: { server: name, command, ...context },
  });
}

/** Runs the helper and returns its headers (values are secrets: added to `redactor`). */
export async function runHeadersHelper(
  name: string,
  entry: ServerEntry,
  redactor: Redactor,
): Promise<Record<string, string>> {
  const command = entry.headersHelper as string;
  const stdout = await new Promise<string>((resolve, reject) => {
    exec(
      command,
      {
        timeout: helperTimeoutMs,
        maxBuffer: helperMaxBytes,
        windowsHide: true,
        // The server it is for, as Claude Code tells its helpers (one script can serve several servers).
        env: {
          ...process.env,
          SWITCHBOARD_MCP_SERVER_NAME: name,
          SWITCHBOARD_MCP_SERVER_URL: entry.url ?? '',
          CLAUDE_CODE_MCP_SERVER_NAME: name,
          CLAUDE_CODE_MCP_SERVER_URL: entry.url ?? '',
        },
      },
      (error, out) => {
        if (!error) return resolve(out);
        // Node's ExecException: `code` is the exit status (a number) once the command ran.
        const failure: { killed?: boolean | undefined; signal?: string | undefined; code?: unknown } = error;
        if (failure.killed && failure.signal) {
          return reject(
            helperError(name, command, `did not finish within ${helperTimeoutMs / 1000} s and was stopped.`, {
              signal: failure.signal,
            }),
          );
        }
        const status = typeof failure.code === 'number' ? failure.code : undefined;
        reject(
          helperError(
            name,
            command,
            status === undefined ? 'could not be run.' : `failed with exit status ${status}.`,
            status === undefined ? {} : { exitStatus: status },
          ),
        );
      },
    );
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    parsed = undefined;
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((value) => typeof value === 'string')
  ) {
    throw helperError(name, command, 'did not print a JSON object of header names to string values.');
  }
  const headers = parsed as Record<string, string>;
  const secrets: string[] = [];
  for (const value of Object.values(headers)) {
    secrets.push(value);
    const token = /^\s*\w+\s+(.+)$/.exec(value)?.[1];
    if (token) secrets.push(token);
  }
  redactor.add(secrets);
  return headers;
}

/** The entry with its helper's headers merged over its static ones (remote servers with a helper only). */
export async function withHelperHeaders<T extends ServerEntry>(
  name: string,
  entry: T,
  redactor: Redactor,
): Promise<T> {
  if (typeof entry.headersHelper !== 'string' || entry.headersHelper === '' || entry.url === undefined)
    return entry;
  const headers = await runHeadersHelper(name, entry, redactor);
  return { ...entry, headers: { ...entry.headers, ...headers } };
}

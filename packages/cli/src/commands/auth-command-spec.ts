/** `switchboard auth <server>` (sign in), `auth --list`, `auth --revoke <server>`. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard auth <server> [--no-browser] [--port N]   sign in to a server (OAuth)
  switchboard auth --list                              servers with stored sign-ins
  switchboard auth --revoke <server>                   forget a server's tokens and registration

Signs in to a remote MCP server that follows the MCP authorization spec: discovers its
authorization server, registers this client if needed, prints the sign-in URL and opens it in the
browser (--no-browser only prints it), and waits for the redirect on 127.0.0.1 (--port fixes the
port). Headless servers with "auth": { "grantType": "client_credentials", ... } need no sign-in.
Tokens are kept in ~/.switchboard/auth (files of mode 0600) and are never printed.`;

/** The `auth` command's spec; `runAuthCommand` in auth-command.ts runs it. */
export const authCommandSpec: CommandSpec = {
  name: 'auth',
  summary: 'sign in to a remote server (OAuth), list or revoke sign-ins',
  help,
  options: {
    list: { type: 'boolean', default: false },
    revoke: { type: 'string' },
    'no-browser': { type: 'boolean', default: false },
    port: { type: 'string' },
  },
  operands: 'server',
};

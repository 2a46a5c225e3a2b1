/** `switchboard ui`: a local web inspector of the configured servers, their tools, calls and selection. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard ui [--config FILE] [--port N] [--no-open]

Serves a local web page for the configured servers and prints its URL on stdout
(http://127.0.0.1:PORT/?token=…); opens it in the browser unless --no-open. The page shows each
server's state, tools, resources and prompts; calls tools through a form generated from their
schema (validated first; approval, progress, cancel, elicitation and sampling answered in the page);
the protocol log of every server, redacted like the logs; the tool selector's ranking for a query;
and latency and calls over time. Servers can be added in the page (a command, or a URL such as a
gateway's), connected, disconnected and signed in to.

Security: it listens on 127.0.0.1 only; every request needs the random token of the printed URL
(kept in a cookie afterwards); requests from other origins or for other Host names are refused;
no secret of a server's config is ever sent to the page.

Options:
  --port N      port to listen on (default 0: a free one)
  --no-open     do not open the browser (the URL is printed either way)

Runs until interrupted (Ctrl-C).`;

/** The `ui` command's spec; `runUiCommand` in ui-command.ts runs it. */
export const uiCommandSpec: CommandSpec = {
  name: 'ui',
  summary: 'a local web inspector: servers, tools, calls, protocol log, selection, metrics',
  help,
  options: {
    port: { type: 'string' },
    'no-open': { type: 'boolean', default: false },
  },
};

/**
 * `switchboard serve`: the configured servers as one MCP gateway, over stdio (default) or
 * Streamable HTTP. With `--select`, the gateway serves `discover_tools` and the tools it finds
 * instead of every tool, so a model with a small context can still reach hundreds of them.
 */
import type { CommandSpec } from '../cli-command.js';
import { replicaFlags } from './serve-replica-flags.js';

const help = `Usage:
  switchboard serve [--select] [--skills DIR] [--approval auto|elicit|host|hide]
  switchboard serve --http [--port 3000] [--host 127.0.0.1] [--token TOKEN] [--session] [--select] [--skills DIR] [--approval MODE]

Serves every configured server's tools, namespaced, as one MCP server (a gateway), to clients of
both protocol eras: 2026-07-28 (stateless, per-request _meta) and the 2025 family (initialize).
stdio by default (stdout carries only the protocol; messages go to stderr). --http serves Streamable
HTTP on /mcp with /health reporting each upstream's status and metrics: 2026-07-28 requests are
always stateless; 2025 clients get sessions with --session (resumable streams, server requests),
else they are served statelessly too. A host other than 127.0.0.1 needs --token (or
SWITCHBOARD_TOKEN). --select serves discover_tools plus the tools it finds. --skills serves the
skills of a folder (one folder per skill with a SKILL.md; extension io.modelcontextprotocol/skills).
Upstream servers' elicitation, sampling and roots requests reach the client of the call that caused
them. Stops on Ctrl-C / SIGTERM (HTTP drains calls in flight).

Approval: every tool is served except those a server's approval rules deny. A tool that needs a
person's yes (no readOnlyHint, or an 'ask' rule) is listed with its annotations, and --approval says
who asks before it runs:
  auto    (default) the client, with an elicitation, when it supports one; otherwise the call runs
          and the host's own confirmation asks (Claude Desktop, Cursor, VS Code confirm tool calls)
  elicit  always the client, with an elicitation; a client that cannot answer one is refused
  host    never the gateway: the call runs, the host confirms tool calls itself (no second question)
  hide    such tools are not served (a call says why)
--allow-approval-tools is a deprecated alias of --approval host.

Events: the upstreams' event types are served namespaced like tools, by poll, stream and webhook
(events/subscribe; the gateway signs and posts each delivery). A webhook subscriber must be an
authenticated caller (--token or --tokens-file), and its callback an https URL on a public address;
--allow-local-webhooks also lets http:// and local addresses be subscribed (development only). With
--redis the subscriptions are kept in Redis: one made through any replica is delivered by one of
them at a time and outlives the replica it was made on.`;

/** The `serve` command's spec; `runServeCommand` in serve-command.ts runs it. */
export const serveCommandSpec: CommandSpec = {
  name: 'serve',
  summary: 'serve the configured servers as one MCP gateway (stdio or HTTP)',
  help,
  options: {
    http: { type: 'boolean', default: false },
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    session: { type: 'boolean', default: false },
    select: { type: 'boolean', default: false },
    skills: { type: 'string' },
    store: { type: 'string' },
    approval: { type: 'string' },
    'allow-approval-tools': { type: 'boolean', default: false },
    'allow-local-webhooks': { type: 'boolean', default: false },
    ...replicaFlags,
  },
  optionValues: {
    skills: 'directory',
    store: 'file',
    'tokens-file': 'file',
    'session-key-file': 'file',
    // The server's `approvalPrompts` (not imported: a spec loads nothing; test/serve.test.ts compares).
    approval: ['auto', 'elicit', 'host', 'hide'],
  },
};

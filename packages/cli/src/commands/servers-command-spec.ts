/**
 * `switchboard servers list | add | remove | import | export | install-gateway`: edits the config
 * in the `mcpServers` format; export and install-gateway (other tools' files) are in servers-export.ts.
 */
import type { CommandSpec } from '../cli-command.js';

/**
 * The hosts `--from` and `--to` take: `hostIds` of @switchboard/client, written out here so
 * that the spec loads without the client (test/command-specs.test.ts keeps the two lists equal).
 */
export const serverHosts = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'zed',
  'gemini-cli',
  'cline',
  'codex',
  'continue',
  'goose',
] as const;

const help = `Usage:
  switchboard servers list
  switchboard servers add <name> [--scope user|project] [--env K=V]... -- <command> [args…]
  switchboard servers add <name> --url URL [--type http|sse|ws] [--header K=V]... [--scope user|project]
  switchboard servers remove <name> [--scope user|project]
  switchboard servers import --from HOST [--path FILE] [--overwrite]
  switchboard servers export --to HOST [--path FILE] [--yes] [--dry-run]
  switchboard servers install-gateway --to HOST [--path FILE] [--yes] [--dry-run] [--overwrite]

HOST: ${serverHosts.join(', ')}.

Edits ~/.switchboard/mcp.json (--scope user, the default), ./.switchboard/mcp.json (--scope project)
or the --config file. Comments and unknown fields are kept.
import reads the host's files (or --path) into it. export writes its servers into the host's
user-level file (or --path) in the host's format, keeping the file's comments: it prints the diff,
then writes with --yes or after you confirm (--dry-run only prints), keeping the old file as
FILE.bak-<time>. \${VAR} stays a reference in the host's syntax; secrets are never written in clear
where the host has references. install-gateway copies the host's servers into Switchboard's config,
then replaces them in the host with one 'switchboard' entry running 'switchboard serve --config …
--approval host': the host keeps every tool it had and confirms each call itself, as before.`;

/** The `servers` command's spec; `runServersCommand` in servers-command.ts runs it. */
export const serversCommandSpec: CommandSpec = {
  name: 'servers',
  summary: 'list, add, remove, import or export MCP servers; install the gateway into a host',
  help,
  options: {
    url: { type: 'string' },
    type: { type: 'string' },
    header: { type: 'string', multiple: true },
    env: { type: 'string', multiple: true },
    scope: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    path: { type: 'string' },
    overwrite: { type: 'boolean', default: false },
    yes: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
  },
  subcommands: [
    { name: 'list' },
    { name: 'add' },
    { name: 'remove', operands: 'server' },
    { name: 'import' },
    { name: 'export' },
    { name: 'install-gateway' },
  ],
  optionValues: {
    scope: ['user', 'project'],
    type: ['http', 'sse', 'ws'],
    from: serverHosts,
    to: serverHosts,
    path: 'file',
  },
};

/** `switchboard servers list | add | remove | import`: edits the config in the `mcpServers` format. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard servers list
  switchboard servers add <name> [--scope user|project] [--env K=V]... -- <command> [args…]
  switchboard servers add <name> --url URL [--type http|sse|ws] [--header K=V]... [--scope user|project]
  switchboard servers remove <name> [--scope user|project]
  switchboard servers import --from claude-desktop|claude-code|cursor|vscode|gemini-cli|cline|codex [--path FILE] [--overwrite]

Edits ~/.switchboard/mcp.json (--scope user, the default), ./.switchboard/mcp.json (--scope project)
or the --config file. Comments and unknown fields are kept.`;

/** The `servers` command's spec; `runServersCommand` in servers-command.ts runs it. */
export const serversCommandSpec: CommandSpec = {
  name: 'servers',
  summary: 'list, add, remove or import configured MCP servers',
  help,
  options: {
    url: { type: 'string' },
    type: { type: 'string' },
    header: { type: 'string', multiple: true },
    env: { type: 'string', multiple: true },
    scope: { type: 'string' },
    from: { type: 'string' },
    path: { type: 'string' },
    overwrite: { type: 'boolean', default: false },
  },
  subcommands: [
    { name: 'list' },
    { name: 'add' },
    { name: 'remove', operands: 'server' },
    { name: 'import' },
  ],
  optionValues: { scope: ['user', 'project'], type: ['http', 'sse', 'ws'], path: 'file' },
};

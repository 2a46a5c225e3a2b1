/**
 * The keys hosts add to the common `mcpServers` entry shape, mapped onto Switchboard's before an
 * imported entry is validated (and back on export), so that what a user set in their host (a tool
 * allow-list, a timeout, auto-approved tools) keeps meaning the same here instead of being lost.
 * Each host's module in `hosts/` does its own mapping; this table is the overview:
 *
 * | host | key | becomes |
 * |---|---|---|
 * | Claude Code | `timeout` (ms) | `timeouts.callMs` |
 * | Claude Code | `headersHelper` | `headersHelper` (run at connect, its JSON output merged into `headers`) |
 * | Claude Code | `oauth.clientId`, `oauth.callbackPort`, `oauth.scopes` (space-separated) | `auth.clientId`, `auth.redirectPort`, `auth.scopes` (other `oauth` keys kept) |
 * | VS Code | `envFile`, `cwd`; `dev` (`watch`, `debug`) | the same; `dev` kept for export |
 * | VS Code, Cursor, Windsurf | `${env:VAR}` | `${VAR}` |
 * | Windsurf | `serverUrl`, `disabledTools` | `url`, `excludeTools` |
 * | Zed | `command: { path, args, env }` (object form) | `command`, `args`, `env` |
 * | Gemini CLI | `httpUrl` / `url` | `url` with `type: 'http'` / `'sse'` (Gemini's `url` is legacy SSE) |
 * | Gemini CLI | `timeout` (ms), `trust: true`, bare `$VAR` | `timeouts.callMs`, `approval: 'never'` (Gemini skips confirmations), `${VAR}` |
 * | Gemini CLI | `includeTools` / `excludeTools` | kept (the same keys) |
 * | Cline | `autoApprove` / `alwaysAllow` | `approval.allow` (the policy still asks for the rest) |
 * | Cline | `timeout` (s), `networkTimeout` (ms) | `timeouts.callMs` |
 * | Codex | `enabled_tools` / `disabled_tools` | `includeTools` / `excludeTools` |
 * | Codex | `startup_timeout_sec` (or `_ms`), `tool_timeout_sec` | `timeouts.connectMs`, `timeouts.callMs` |
 * | Codex | `url` (Streamable HTTP), `http_headers`, `env_http_headers`, `bearer_token_env_var`, `env_vars` | `type: 'http'`, `headers`, `env` (env references kept as `${VAR}`, never their values) |
 * | Continue | list item `name`, `requestOptions.headers`, `${{ secrets.VAR }}` | the server's name, `headers`, `${VAR}` |
 * | Goose | `cmd`, `envs`, `env_keys`, `uri`, `timeout` (s) | `command`, `env` (`env_keys` as `${VAR}`), `url`, `timeouts.callMs` |
 *
 * Any other host key is kept in `hostKeys[host]` and reported with file, line and key.
 */
import type { HostId, MappedEntry } from './hosts/host-format.js';
import { hostFormats } from './hosts/index.js';

/** One raw host entry mapped onto Switchboard's keys by the host's module (before validation). */
export function mapHostServerKeys(host: HostId, entry: Record<string, unknown>): MappedEntry {
  return hostFormats[host].toServerConfig(entry);
}

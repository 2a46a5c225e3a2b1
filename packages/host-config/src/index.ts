/**
 * Public API of @switchboard/host-config: MCP server configs edited in place — Switchboard's own
 * `mcpServers` file and other tools' (Claude Desktop, Cursor, VS Code, Codex, …) — keeping
 * comments, order and unknown keys. Reading is `@switchboard/client`'s (`loadConfig`,
 * `importConfig`). Any new export added here becomes public API: use named exports, not wildcards.
 */

export type { AddServerOptions, ConfigFile, ConfigFileUpdate } from './config-file-editor.js';
export { addServer, readConfigFile, removeServer, updateConfigFile } from './config-file-editor.js';
export type { ExportConfigOptions, ExportPlan, ExportResult } from './export-config.js';
export { applyExportPlan, exportConfig, planExport } from './export-config.js';

/**
 * Config loading and importing for @switchboard/client (editing and exporting are
 * `@switchboard/host-config`'s). Re-exported from the package entry; named exports only.
 */

export { configErrorCodes } from './config-error.js';
export type { ExpansionLocation, VariableSource } from './expand-variables.js';
export { expandVariables } from './expand-variables.js';
export type {
  ExportEntryContext,
  ExportedEntry,
  HostEntry,
  HostFormat,
  HostId,
  HostLocation,
  HostLocationContext,
  HostSyntax,
  MappedEntry,
} from './hosts/host-format.js';
export { hostFormats, hostIds, isHostId } from './hosts/index.js';
export type {
  ImportCandidate,
  ImportConfigOptions,
  ImportedConfig,
  ImportFormat,
  InputResolver,
  VsCodeInput,
} from './import-config.js';
export {
  claudeDesktopConfigPath,
  clineSettingsPath,
  defaultImportCandidates,
  importConfig,
  importFormats,
} from './import-config.js';
export type { LoadConfigOptions } from './load-config.js';
export { configEnvironmentVariable, findProjectDirectory, loadConfig } from './load-config.js';
export type {
  ApprovalConfig,
  ApprovalMode,
  ConfigError,
  ConfigSource,
  ServerConfig,
  SwitchboardConfig,
} from './server-config.js';
export { normalizeTransportType } from './validate-server-config.js';

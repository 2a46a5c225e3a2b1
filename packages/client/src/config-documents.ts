/**
 * Public API of `@switchboard/client/config-documents`: config files read as documents with
 * positions — JSONC, TOML and YAML in one shape, each node with its offsets — the validation of a
 * server entry, and the errors that name file, line and column. `loadConfig` and `importConfig`
 * read with these; an editor of config files (`@switchboard/host-config`) edits what they read,
 * so that its errors and positions are the same. Lower-level than the root entry: most programs
 * need `loadConfig`. Any new export added here becomes public API: use named exports, not wildcards.
 */

export type { ConfigIssue } from './config/config-error.js';
export { createInvalidConfigError } from './config/config-error.js';
export { loadSmolToml, loadYaml } from './config/config-libraries.js';
export { isSecretName } from './config/hosts/env-references.js';
export type { JsoncDocument, JsonMember, JsonNode, JsonPathSegment } from './config/jsonc-document.js';
export { formatJsonPath, parseJsonc } from './config/jsonc-document.js';
export { parseConfigText, readJsoncFile } from './config/read-config-document.js';
export type { ValidationSink } from './config/validate-server-config.js';
export { describeType, validateServerEntry } from './config/validate-server-config.js';
export type { YamlConfigDocument } from './config/yaml-document.js';

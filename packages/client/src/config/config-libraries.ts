/**
 * The parsers only some config files need — YAML (Continue's and Goose's files) and TOML (Codex's)
 * — loaded at their first use rather than when the client is imported, which every process using
 * the client (a CLI listing tools) would pay for. `require` keeps their callers synchronous; each
 * has a CommonJS build (yaml's is its only Node build), and every use goes through here (editors
 * too, through `@switchboard/client/config-documents`), so one copy of each loads.
 */
import { createRequire } from 'node:module';
import type * as SmolToml from 'smol-toml';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;
let smolToml: typeof SmolToml | undefined;

/** The `yaml` package. */
export function loadYaml(): typeof Yaml {
  yaml ??= require('yaml') as typeof Yaml;
  return yaml;
}

/** The `smol-toml` package. */
export function loadSmolToml(): typeof SmolToml {
  smolToml ??= require('smol-toml') as typeof SmolToml;
  return smolToml;
}

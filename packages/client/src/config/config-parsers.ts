/**
 * The YAML and TOML libraries, loaded at the first file of those formats rather than when the
 * client is imported: only some hosts' configs are YAML (Continue, Goose) or TOML (Codex), and
 * every process that imports the client — a CLI listing tools — would pay for them. `require`
 * keeps parsing synchronous; both have CommonJS builds (yaml's is its only Node build), and every
 * use goes through here, so one copy of each loads.
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

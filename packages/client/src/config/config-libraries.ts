/**
 * The libraries only some config work needs — YAML (Continue's and Goose's files), TOML (Codex's)
 * and the unified diff an export shows first — loaded at their first use rather than when the
 * client is imported, which every process using the client (a CLI listing tools) would pay for.
 * `require` keeps their callers synchronous; each has a CommonJS build (yaml's is its only Node
 * build), and every use goes through here, so one copy of each loads.
 */
import { createRequire } from 'node:module';
import type * as Diff from 'diff';
import type * as SmolToml from 'smol-toml';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;
let smolToml: typeof SmolToml | undefined;
let diff: typeof Diff | undefined;

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

/** The `diff` package. */
export function loadDiff(): typeof Diff {
  diff ??= require('diff') as typeof Diff;
  return diff;
}

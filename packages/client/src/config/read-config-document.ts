/**
 * Reading and validating one config file: shared by `loadConfig`, `importConfig` and the editor,
 * so every entry point reports the same errors the same way.
 */
import { readFile } from 'node:fs/promises';
import { SwitchboardError } from '@switchboard/core';
import {
  type ConfigIssue,
  configErrorCodes,
  createInvalidConfigError,
  describeLocation,
} from './config-error.js';
import { formatJsonPath, type JsoncDocument, parseJsonc } from './jsonc-document.js';
import { parseTomlDocument } from './toml-document.js';
import { type ValidatedDocument, validateConfigDocument } from './validate-server-config.js';
import { parseYamlDocument } from './yaml-document.js';

/** Reads and parses a JSONC file (or, with `format`, a TOML or YAML one); undefined when it does not exist. */
export async function readJsoncFile(
  file: string,
  format: 'jsonc' | 'toml' | 'yaml' = 'jsonc',
): Promise<JsoncDocument | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new SwitchboardError({
      code: configErrorCodes.io,
      message: `Cannot read config file ${file}: ${(error as Error).message}. Check that it is a readable file.`,
      context: { file },
      cause: error,
    });
  }
  return parseConfigText(text, file, format);
}

/** Parses a config text of a syntax into the common document shape (YAML keeps its `yaml` Document). */
export function parseConfigText(
  text: string,
  file: string,
  format: 'jsonc' | 'toml' | 'yaml',
): JsoncDocument {
  if (format === 'toml') return parseTomlDocument(text, file);
  if (format === 'yaml') return parseYamlDocument(text, file);
  return parseJsonc(text, file);
}

/** Validates a parsed document, throwing one `CONFIG_INVALID` error with every issue; returns warnings as text. */
export function validateDocument(
  document: JsoncDocument,
  file: string,
  serversKey: 'mcpServers' | 'servers' = 'mcpServers',
): ValidatedDocument & { warnings: string[] } {
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  const result = validateConfigDocument(
    document.value,
    {
      issue: (path, message) => issues.push({ path, message }),
      warn: (path, message) =>
        warnings.push(`${formatJsonPath(path)} (${describeLocation(file, document, path)}): ${message}`),
    },
    serversKey,
  );
  if (issues.length > 0) throw createInvalidConfigError(file, document, issues);
  return { ...result, warnings };
}

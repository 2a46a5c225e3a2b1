/**
 * Error codes of config loading and editing, and the one place that turns validation issues into
 * a `SwitchboardError` naming file, JSON path, line and column. Messages never carry values of
 * `env` or `headers`: they name where a problem is, not what the value was.
 */
import { SwitchboardError } from '@switchboard/core';
import {
  findNode,
  formatJsonPath,
  type JsoncDocument,
  type JsonPathSegment,
  positionAt,
} from './jsonc-document.js';

/** Codes of config errors (all `SwitchboardError` codes). */
export const configErrorCodes = {
  /** The text is not valid JSON(C); the message has line and column. */
  invalidJson: 'CONFIG_INVALID_JSON',
  /** The text is not valid TOML (Codex's config); the message has line and column. */
  invalidToml: 'CONFIG_INVALID_TOML',
  /** The text is not valid YAML (Continue's and Goose's configs); the message has line and column. */
  invalidYaml: 'CONFIG_INVALID_YAML',
  /** The file changed between the diff shown and the write: nothing was written; run the export again. */
  changedMeanwhile: 'CONFIG_CHANGED_MEANWHILE',
  /** The JSON is valid but its shape is not; the message has JSON paths. */
  invalid: 'CONFIG_INVALID',
  /** A `${VAR}` without default refers to an unset variable. */
  variableUnset: 'CONFIG_VARIABLE_UNSET',
  /** A VS Code `${input:id}` was not resolved. */
  inputUnresolved: 'CONFIG_INPUT_UNRESOLVED',
  /** An explicitly named config file does not exist. */
  notFound: 'CONFIG_NOT_FOUND',
  /** `addServer` found a server of that name already. */
  serverExists: 'CONFIG_SERVER_EXISTS',
  /** The server is not in the config file. */
  serverNotFound: 'SERVER_NOT_FOUND',
  /** Reading or writing a config file failed. */
  io: 'CONFIG_IO_ERROR',
} as const;

/** One problem found while validating a config document. */
export interface ConfigIssue {
  path: JsonPathSegment[];
  /** What is wrong and what to do. Never includes a value from `env` or `headers`. */
  message: string;
}

/** `file:line:column` of a path in a document, or the file alone when there is no document. */
export function describeLocation(
  file: string,
  document: JsoncDocument | undefined,
  path: JsonPathSegment[],
): string {
  if (!document) return file;
  const node = findNode(document.root, path);
  const { line, column } = positionAt(document.text, node.start);
  return `${file}:${line}:${column}`;
}

/** A `CONFIG_INVALID` error listing every issue with its JSON path and position. */
export function createInvalidConfigError(
  file: string,
  document: JsoncDocument | undefined,
  issues: ConfigIssue[],
): SwitchboardError {
  const lines = issues.map(
    (issue) =>
      `  - ${formatJsonPath(issue.path)} (${describeLocation(file, document, issue.path)}): ${issue.message}`,
  );
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  return new SwitchboardError({
    code: configErrorCodes.invalid,
    message: `Invalid Switchboard config in ${file} (${count}):\n${lines.join('\n')}`,
    context: {
      file,
      issues: issues.map((issue) => ({ path: formatJsonPath(issue.path), message: issue.message })),
    },
  });
}

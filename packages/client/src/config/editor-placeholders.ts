/**
 * Editor placeholders that only the editor knows, resolved on import: `${workspaceFolder}`,
 * `${userHome}`, `${pathSeparator}` / `${/}`, and VS Code's `${input:id}` prompts (from a map, a
 * callback, or the input's default). Environment references (`${VAR}`) are left alone: importing
 * never copies a secret out of the environment into a file.
 */
import { sep } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { configErrorCodes, describeLocation } from './config-error.js';
import { formatJsonPath, type JsoncDocument, type JsonPathSegment } from './jsonc-document.js';
import type { ServerConfig } from './server-config.js';

/** A VS Code `inputs` entry (`promptString` or `pickString`). */
export interface VsCodeInput {
  id: string;
  type?: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: string[];
}

/** Resolves VS Code `${input:id}` placeholders: a map by id, or a callback (e.g. a CLI prompt). */
export type InputResolver =
  | Record<string, string>
  | ((input: VsCodeInput) => string | undefined | Promise<string | undefined>);

function getAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
  }
  return current;
}

const placeholderPattern = /\$\{(workspaceFolder|userHome|pathSeparator|\/|input:([^}]+))\}/g;

/** The VS Code `inputs` beside a servers map (`inputs`, or `mcp.inputs` in settings.json). */
export function readVsCodeInputs(value: unknown, serversPath: readonly string[]): VsCodeInput[] {
  const inputs = getAt(value, [...serversPath.slice(0, -1), 'inputs']);
  if (!Array.isArray(inputs)) return [];
  return inputs.filter(
    (input): input is VsCodeInput =>
      typeof input === 'object' && input !== null && typeof (input as VsCodeInput).id === 'string',
  );
}

/** Where the placeholders being resolved are, and how to resolve inputs. */
export interface PlaceholderContext {
  workspaceFolder: string;
  home: string;
  inputs: VsCodeInput[];
  resolver: InputResolver | undefined;
  server: string;
  file: string;
  document: JsoncDocument;
  path: JsonPathSegment[];
}

/** Resolves editor placeholders and VS Code inputs in one server; unresolved inputs are one error naming them all. */
export async function resolvePlaceholders(
  config: ServerConfig,
  context: PlaceholderContext,
): Promise<ServerConfig> {
  const unresolved = new Map<string, JsonPathSegment[]>();
  const cache = new Map<string, string | undefined>();

  const resolveInput = async (id: string): Promise<string | undefined> => {
    if (cache.has(id)) return cache.get(id);
    const input = context.inputs.find((candidate) => candidate.id === id) ?? { id };
    let value: string | undefined;
    if (typeof context.resolver === 'function') value = await context.resolver(input);
    else if (context.resolver && Object.hasOwn(context.resolver, id)) value = context.resolver[id];
    // A default is a literal value, so its `$` is escaped for later expansion; resolver values are config text.
    if (value === undefined && typeof input.default === 'string')
      value = input.default.replaceAll('$', '$$$$');
    cache.set(id, value);
    return value;
  };

  const replace = async (text: string, ...segments: JsonPathSegment[]): Promise<string> => {
    if (!text.includes('${')) return text;
    let out = '';
    let last = 0;
    for (const match of text.matchAll(placeholderPattern)) {
      out += text.slice(last, match.index);
      last = match.index + match[0].length;
      const [whole, name, inputId] = match;
      if (inputId !== undefined) {
        const value = await resolveInput(inputId);
        if (value === undefined) {
          if (!unresolved.has(inputId)) unresolved.set(inputId, [...context.path, ...segments]);
          out += whole;
        } else out += value;
      } else if (name === 'workspaceFolder') out += context.workspaceFolder;
      else if (name === 'userHome') out += context.home;
      else out += sep;
    }
    return out + text.slice(last);
  };

  const out: ServerConfig = { ...config };
  if (config.command !== undefined) out.command = await replace(config.command, 'command');
  if (config.args) {
    const args: string[] = [];
    for (const [index, arg] of config.args.entries()) args.push(await replace(arg, 'args', index));
    out.args = args;
  }
  for (const field of ['env', 'headers'] as const) {
    const map = config[field];
    if (!map) continue;
    const next: Record<string, string> = {};
    for (const [key, value] of Object.entries(map)) next[key] = await replace(value, field, key);
    out[field] = next;
  }
  for (const field of ['url', 'cwd', 'envFile'] as const) {
    const value = config[field];
    if (value !== undefined) out[field] = await replace(value, field);
  }

  if (unresolved.size > 0) {
    const details = [...unresolved].map(([id, path]) => {
      const input = context.inputs.find((candidate) => candidate.id === id);
      const description = input?.description ? ` ("${input.description}")` : '';
      return `\${input:${id}}${description} at ${formatJsonPath(path)} (${describeLocation(context.file, context.document, path)})`;
    });
    const example = [...unresolved.keys()][0] as string;
    throw new SwitchboardError({
      code: configErrorCodes.inputUnresolved,
      message:
        `Server "${context.server}" in ${context.file} uses VS Code inputs that have no value: ${details.join('; ')}. ` +
        `Pass them with importConfig({ inputs: { "${example}": "\${MY_ENV_VAR}" } }) (or a callback that prompts), ` +
        'mapping each to an environment variable keeps the secret out of the config file.',
      context: { server: context.server, file: context.file, inputs: [...unresolved.keys()] },
    });
  }
  return out;
}

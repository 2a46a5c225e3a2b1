/**
 * `${VAR}` expansion in config values.
 *
 * Syntax (the shell's and Docker Compose's, which Claude Code also uses):
 * - `${VAR}` and `${env:VAR}` (VS Code / Cursor spelling): the variable's value; unset is an error.
 * - `${VAR:-default}`: the default when VAR is unset or empty; `${VAR-default}`: only when unset.
 *   Defaults may themselves contain `${…}`.
 * - `$$` is a literal `$` (so `$${VAR}` is the literal text `${VAR}`); a `$` not followed by `{`
 *   or `$` is kept as is.
 * Errors name the variable, the server, the file and the JSON path, never a value.
 */
import { SwitchboardError } from '@switchboard/core';
import { configErrorCodes, describeLocation } from './config-error.js';
import { expandServerAuth } from './expand-server-auth.js';
import { formatJsonPath, type JsoncDocument, type JsonPathSegment } from './jsonc-document.js';
import type { ServerConfig } from './server-config.js';

/** Where the text being expanded lives, for error messages. */
export interface ExpansionLocation {
  file: string;
  server: string;
  path: JsonPathSegment[];
  document?: JsoncDocument;
}

/** Variables visible to expansion (usually `process.env`). */
export type VariableSource = Record<string, string | undefined>;

const namePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

function malformed(location: ExpansionLocation, detail: string): SwitchboardError {
  const where = `${formatJsonPath(location.path)} (${describeLocation(location.file, location.document, location.path)})`;
  return new SwitchboardError({
    code: configErrorCodes.invalid,
    message: `Malformed variable reference in server "${location.server}" at ${where}: ${detail}. Write \${NAME}, \${NAME:-default} or \${env:NAME}; write $$ for a literal $.`,
    context: { file: location.file, server: location.server, path: formatJsonPath(location.path) },
  });
}

/** Index of the `}` closing the `${` that starts at `open`, honouring nested `${…}`; -1 if none. */
function findClose(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === '$' && text[index + 1] === '$') index++;
    else if (text[index] === '$' && text[index + 1] === '{') {
      depth++;
      index++;
    } else if (text[index] === '}') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/**
 * Expands variables in one string. Unset variables without default are collected in `unset`
 * (so one error can name them all) and expand to ''.
 */
function expandInto(
  text: string,
  variables: VariableSource,
  location: ExpansionLocation,
  unset: string[],
): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const dollar = text.indexOf('$', index);
    if (dollar === -1) {
      out += text.slice(index);
      break;
    }
    out += text.slice(index, dollar);
    const next = text[dollar + 1];
    if (next === '$') {
      out += '$';
      index = dollar + 2;
      continue;
    }
    if (next !== '{') {
      out += '$';
      index = dollar + 1;
      continue;
    }
    const close = findClose(text, dollar);
    if (close === -1) throw malformed(location, `a "\${" is not closed by "}"`);
    let body = text.slice(dollar + 2, close);
    index = close + 1;
    if (body.startsWith('input:')) {
      throw new SwitchboardError({
        code: configErrorCodes.inputUnresolved,
        message: `Server "${location.server}" at ${formatJsonPath(location.path)} (${describeLocation(location.file, location.document, location.path)}) uses the VS Code input placeholder \${${body}}, which only VS Code can prompt for. Replace it with \${ENV_VAR} and set that variable, or import the file with importConfig({ inputs }).`,
        context: {
          file: location.file,
          server: location.server,
          path: formatJsonPath(location.path),
          input: body.slice(6),
        },
      });
    }
    if (body.startsWith('env:')) body = body.slice(4);
    const operator = /:-|-/.exec(body);
    const name = operator ? body.slice(0, operator.index) : body;
    if (!namePattern.test(name)) {
      throw malformed(
        location,
        // The text is not quoted: inside an env or header value it may be part of a secret.
        `the text inside \${…} is not a variable name (letters, digits and _, not starting with a digit)`,
      );
    }
    const value = variables[name];
    if (operator) {
      const useDefault = operator[0] === ':-' ? value === undefined || value === '' : value === undefined;
      out += useDefault
        ? expandInto(body.slice(operator.index + operator[0].length), variables, location, unset)
        : (value as string);
    } else if (value === undefined) {
      if (!unset.includes(name)) unset.push(name);
    } else {
      out += value;
    }
  }
  return out;
}

/** Expands `${…}` references in one string; throws `CONFIG_VARIABLE_UNSET` naming variable, server, file and path. */
export function expandVariables(
  text: string,
  variables: VariableSource,
  location: ExpansionLocation,
): string {
  const unset: string[] = [];
  const out = expandInto(text, variables, location, unset);
  if (unset.length > 0) throw unsetError(unset, [location]);
  return out;
}

function unsetError(names: string[], locations: ExpansionLocation[]): SwitchboardError {
  const first = locations[0] as ExpansionLocation;
  const where = locations
    .map(
      (location) =>
        `${formatJsonPath(location.path)} (${describeLocation(location.file, location.document, location.path)})`,
    )
    .join(', ');
  const list = names.map((name) => `\${${name}}`).join(', ');
  const plural = names.length > 1;
  return new SwitchboardError({
    code: configErrorCodes.variableUnset,
    message:
      `Environment variable${plural ? 's' : ''} ${names.join(', ')} ${plural ? 'are' : 'is'} not set, ` +
      `but server "${first.server}" in ${first.file} uses ${list} at ${where}. ` +
      `Set ${plural ? 'them' : 'it'} in the environment, or give a default with \${${names[0]}:-default}.`,
    context: {
      variables: names,
      server: first.server,
      file: first.file,
      paths: locations.map((location) => formatJsonPath(location.path)),
    },
  });
}

/**
 * Expands variables in a server's command, args, env values, url, headers values, cwd and envFile.
 * All unset variables of the entry are reported together.
 */
export function expandServerConfig(
  config: ServerConfig,
  variables: VariableSource,
  location: Omit<ExpansionLocation, 'path'> & { path: JsonPathSegment[] },
): ServerConfig {
  const unset: string[] = [];
  const failedAt: ExpansionLocation[] = [];
  const expand = (text: string, ...segments: JsonPathSegment[]): string => {
    const here: ExpansionLocation = { ...location, path: [...location.path, ...segments] };
    const found: string[] = [];
    const out = expandInto(text, variables, here, found);
    if (found.length > 0) {
      failedAt.push(here);
      for (const name of found) if (!unset.includes(name)) unset.push(name);
    }
    return out;
  };
  const out: ServerConfig = { ...config };
  if (config.command !== undefined) out.command = expand(config.command, 'command');
  if (config.args) out.args = config.args.map((arg, index) => expand(arg, 'args', index));
  if (config.env) {
    out.env = Object.fromEntries(
      Object.entries(config.env).map(([key, value]) => [key, expand(value, 'env', key)]),
    );
  }
  if (config.url !== undefined) out.url = expand(config.url, 'url');
  if (config.headers) {
    out.headers = Object.fromEntries(
      Object.entries(config.headers).map(([key, value]) => [key, expand(value, 'headers', key)]),
    );
  }
  if (config.cwd !== undefined) out.cwd = expand(config.cwd, 'cwd');
  if (config.envFile !== undefined) out.envFile = expand(config.envFile, 'envFile');
  if (config.auth) out.auth = expandServerAuth(config.auth, expand);
  if (unset.length > 0) throw unsetError(unset, failedAt);
  return out;
}

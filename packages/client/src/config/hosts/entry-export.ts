/**
 * The export half of a host module: writing one Switchboard server as a host entry. The rules
 * every host shares live here:
 *
 * - `${VAR}` is never expanded: it is written in the host's own reference syntax. A host without
 *   one cannot take the server (it is left out with a warning that names the variable and
 *   suggests `install-gateway`, where Switchboard itself resolves it).
 * - A literal secret (a header, or an env value under a token-like name) is not written in clear
 *   where the host has references: it becomes a reference to a variable named after the server and
 *   key, and a warning says which variable to set. VS Code asks instead (a password `inputs`
 *   prompt). Hosts without references get the literal, with a warning that it is written in clear.
 * - A Switchboard key the host has no room for is named in a warning, never silently lost.
 */
import type { ServerConfig } from '../server-config.js';
import { isSecretName, splitReferences, variableNameFor } from './env-references.js';
import type { ExportedEntry, HostFormat } from './host-format.js';

/** Collects one exported entry's warnings, inputs and refusals. */
export interface EntryExport {
  /** A value in the host's syntax; undefined when the host cannot express it (the entry is refused). */
  text(value: string, where: string): string | undefined;
  /** An env or header map in the host's syntax, secrets replaced by references. */
  map(values: Record<string, string>, field: 'env' | 'headers'): Record<string, string>;
  /** A literal secret as the host should hold it (a reference where it can). */
  secret(value: string, variable: string, description: string): string;
  warn(message: string): void;
  /** Refuses the entry with a reason. */
  refuse(reason: string): void;
  /** Warns about each set key of `config` not in `handled`. */
  unexported(config: ServerConfig, handled: readonly (keyof ServerConfig)[]): void;
  /** The result: the entry (unless refused), warnings and inputs. */
  result(entry: Record<string, unknown>): ExportedEntry;
}

/** Options of {@link createEntryExport}. */
export interface EntryExportOptions {
  /** The host keeps `${VAR:-default}` defaults (Claude Code). @default false */
  keepsDefaults?: boolean;
  /** Literal secrets become VS Code password inputs instead of env references. @default false */
  secretsAsInputs?: boolean;
}

/** Starts exporting server `name` to `host`. */
export function createEntryExport(
  host: HostFormat,
  name: string,
  options: EntryExportOptions = {},
): EntryExport {
  const warnings: string[] = [];
  const inputs: Record<string, unknown>[] = [];
  let refused: string | undefined;
  const prefix = `Server "${name}" → ${host.title}:`;
  const out: EntryExport = {
    text(value, where) {
      let text = '';
      for (const part of splitReferences(value)) {
        if ('text' in part) {
          text += part.text;
          continue;
        }
        const reference = host.envReference(part.variable, part.fallback);
        if (reference === undefined) {
          out.refuse(
            `its ${where} refers to \${${part.variable}} and ${host.title} has no environment references. ` +
              `Use 'switchboard servers install-gateway --to ${host.id}' so that Switchboard resolves it.`,
          );
          return undefined;
        }
        if (part.fallback !== undefined && !options.keepsDefaults) {
          warnings.push(
            `${prefix} the default of \${${part.variable}} in its ${where} is dropped (${host.title} has no defaults); set ${part.variable}.`,
          );
        }
        text += reference;
      }
      return text;
    },
    map(values, field) {
      const mapped: Record<string, string> = {};
      for (const [key, value] of Object.entries(values)) {
        const where = `${field === 'env' ? 'env' : 'header'} ${key}`;
        const secret = isSecretName(key);
        if (secret && splitReferences(value).every((part) => 'text' in part)) {
          const scheme = field === 'headers' ? /^(\w+)\s+\S/.exec(value)?.[1] : undefined;
          const variable =
            field === 'env' ? variableNameFor(key) : variableNameFor(name, scheme ? 'token' : key);
          const token = scheme ? value.slice(scheme.length).trimStart() : value;
          mapped[key] =
            `${scheme ? `${scheme} ` : ''}${out.secret(token, variable, `${where} of MCP server ${name}`)}`;
          continue;
        }
        const text = out.text(value, where);
        if (text !== undefined) mapped[key] = text;
      }
      return mapped;
    },
    secret(value, variable, description) {
      if (options.secretsAsInputs) {
        const id = variable.toLowerCase().replace(/_/g, '-');
        inputs.push({ type: 'promptString', id, description, password: true });
        warnings.push(
          `${prefix} the ${description} is a secret: ${host.title} will ask for it (input "${id}").`,
        );
        return `\${input:${id}}`;
      }
      const reference = host.envReference(variable);
      if (reference === undefined) {
        warnings.push(
          `${prefix} the ${description} is written in clear: ${host.title} has no environment references. Keep the file private.`,
        );
        return value;
      }
      warnings.push(
        `${prefix} the ${description} is a secret and is written as a reference: set ${variable} in ${host.title}'s environment to its value.`,
      );
      return reference;
    },
    warn(message) {
      warnings.push(`${prefix} ${message}`);
    },
    refuse(reason) {
      refused ??= reason;
    },
    unexported(config, handled) {
      for (const key of Object.keys(config) as (keyof ServerConfig)[]) {
        if (key === 'hostKeys' || config[key] === undefined || handled.includes(key)) continue;
        warnings.push(`${prefix} "${key}" is not written: ${host.title} has no equivalent.`);
      }
    },
    result(entry) {
      if (refused !== undefined) {
        return { entry: undefined, warnings: [`${prefix} not exported: ${refused}`, ...warnings] };
      }
      return { entry, warnings, ...(inputs.length > 0 ? { inputs } : {}) };
    },
  };
  return out;
}

/** The entry's kept host keys for `host`, written back after the mapped ones. */
export function keptKeys(config: ServerConfig, host: HostFormat): Record<string, unknown> {
  const kept = config.hostKeys?.[host.id];
  return kept && typeof kept === 'object' ? { ...kept } : {};
}

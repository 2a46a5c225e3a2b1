/**
 * Namespacing: how a tool called `create_issue` on server `github` becomes one public name that
 * every model provider accepts (`mcp__github__create_issue`). The mapping back from a public name
 * to (server, tool) is kept by the registry, not parsed out of the name: sanitising and truncation
 * make parsing ambiguous, a lookup table never is.
 */
import { stableHash, stableHashLength } from './stable-hash.js';
import { SwitchboardError } from './switchboard-error.js';

/** The parts a public tool name is made of. */
export interface ToolNameParts {
  /** Server (source) name, e.g. `github`. */
  server: string;
  /** Tool name on its server, e.g. `create_issue`. */
  tool: string;
  /** Short name standing in for the server (config's per-server `prefix`). @default server */
  prefix?: string;
}

/**
 * A naming style. The built-in templates use `{server}` (replaced by the prefix when one is set)
 * or `{prefix}` (the prefix, or the server name). A function gets the parts and returns the raw
 * name, which is then sanitised and truncated like any other.
 */
export type ToolNameStyle =
  | 'mcp__{server}__{tool}'
  | 'mcp_{server}_{tool}'
  | '{server}__{tool}'
  | '{prefix}.{tool}'
  | ((parts: Required<ToolNameParts>) => string);

/** Options of {@link createToolName} and of the registry's `naming`. */
export interface ToolNamingOptions {
  /** How server and tool names are combined. @default 'mcp__{server}__{tool}' */
  style?: ToolNameStyle;
  /** Longest public name; longer ones keep a readable head plus a stable hash. 64 fits every provider; some accept 128. @default 64 */
  maxLength?: number;
  /**
   * Keep `.` in names. Off by default because OpenAI, Anthropic and Gemini reject it
   * (`^[a-zA-Z0-9_-]{1,64}$`): with the `{prefix}.{tool}` style and this off, `github.create_issue`
   * becomes `github_create_issue`. Turn it on only for consumers that accept dots (agtOS). @default false
   */
  allowDots?: boolean;
  /** Per-server prefixes, e.g. `{ github: 'gh' }`; a tool's own `prefix` wins over this map. @default {} */
  prefixes?: Record<string, string>;
}

/** Default longest public name (the common provider limit). */
export const defaultToolNameMaxLength = 64;

const minimumMaxLength = stableHashLength + 2;

const providerInvalid = /[^a-zA-Z0-9_-]/g;
const dottedInvalid = /[^a-zA-Z0-9_.-]/g;

/**
 * Replaces every character outside the allowed set with `_` (one per UTF-16 code unit, so the
 * result is deterministic and never shorter than its meaning-bearing ASCII part).
 */
export function sanitizeToolName(name: string, options: { allowDots?: boolean } = {}): string {
  return name.replace(options.allowDots ? dottedInvalid : providerInvalid, '_');
}

/** Checks `maxLength` once, with an error that says what to pass instead. */
export function checkMaxLength(maxLength: number): number {
  if (!Number.isInteger(maxLength) || maxLength < minimumMaxLength) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `Tool naming: maxLength must be an integer >= ${minimumMaxLength} (got ${String(maxLength)}); use 64 (the default, accepted by every provider) or 128.`,
      context: { maxLength },
    });
  }
  return maxLength;
}

/**
 * Appends `_<hash of seed>` to `name`, cutting the name's tail so the result fits `maxLength`.
 * Used for truncation (seed: the full raw name) and by the registry to separate collisions
 * (seed: server and tool).
 */
export function appendNameHash(name: string, seed: string, maxLength: number): string {
  const suffix = `_${stableHash(seed)}`;
  return name.slice(0, maxLength - suffix.length) + suffix;
}

function composeRawName(parts: ToolNameParts, options: ToolNamingOptions): string {
  const prefix = parts.prefix ?? options.prefixes?.[parts.server] ?? parts.server;
  const style = options.style ?? 'mcp__{server}__{tool}';
  if (typeof style === 'function') {
    const raw = style({ server: parts.server, tool: parts.tool, prefix });
    if (typeof raw !== 'string') {
      throw new SwitchboardError({
        code: 'INVALID_TOOL_NAME',
        message: `Tool naming: the style function returned ${typeof raw} for tool "${parts.tool}" of server "${parts.server}"; it must return a string.`,
        context: { server: parts.server, tool: parts.tool },
      });
    }
    return raw;
  }
  switch (style) {
    case 'mcp__{server}__{tool}':
      return `mcp__${prefix}__${parts.tool}`;
    case 'mcp_{server}_{tool}':
      return `mcp_${prefix}_${parts.tool}`;
    case '{server}__{tool}':
      return `${prefix}__${parts.tool}`;
    case '{prefix}.{tool}':
      return `${prefix}.${parts.tool}`;
    default:
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool naming: unknown style "${String(style)}"; use 'mcp__{server}__{tool}', 'mcp_{server}_{tool}', '{server}__{tool}', '{prefix}.{tool}' or a function.`,
        context: { style: String(style) },
      });
  }
}

/**
 * The public name of a tool: styled, sanitised to the provider charset and, when longer than
 * `maxLength`, cut to a readable head plus `_` and a 6-character stable hash of the full name.
 * Deterministic: the same parts and options always give the same name. Collisions between
 * different tools are resolved by the registry, which appends a hash of (server, tool).
 */
export function createToolName(parts: ToolNameParts, options: ToolNamingOptions = {}): string {
  if (typeof parts.server !== 'string' || parts.server === '') {
    throw new SwitchboardError({
      code: 'INVALID_TOOL_NAME',
      message: `Tool naming: server name must be a non-empty string (tool "${String(parts.tool)}").`,
      context: { tool: parts.tool },
    });
  }
  if (typeof parts.tool !== 'string' || parts.tool === '') {
    throw new SwitchboardError({
      code: 'INVALID_TOOL_NAME',
      message: `Tool naming: tool name must be a non-empty string (server "${parts.server}").`,
      context: { server: parts.server },
    });
  }
  const maxLength = checkMaxLength(options.maxLength ?? defaultToolNameMaxLength);
  const raw = composeRawName(parts, options);
  if (raw === '') {
    throw new SwitchboardError({
      code: 'INVALID_TOOL_NAME',
      message: `Tool naming: the style produced an empty name for tool "${parts.tool}" of server "${parts.server}".`,
      context: { server: parts.server, tool: parts.tool },
    });
  }
  const clean = sanitizeToolName(raw, { allowDots: options.allowDots ?? false });
  return clean.length <= maxLength ? clean : appendNameHash(clean, raw, maxLength);
}

/**
 * The tool registry: every tool Switchboard knows, under a unique public name, grouped by server.
 * Client, server and tool selection all read it and subscribe to its change events.
 */
import { sameJsonValue } from './json-equal.js';
import type { Logger } from './logger.js';
import { silentLogger } from './logger.js';
import { isModelFacing } from './model-visibility.js';
import { SwitchboardError } from './switchboard-error.js';
import type { JsonSchema, RegisteredTool } from './tool-definition.js';
import type { ToolNamingOptions } from './tool-name.js';
import { appendNameHash, checkMaxLength, createToolName, defaultToolNameMaxLength } from './tool-name.js';

/** A tool to register: `name` is the tool's name on its server; the registry derives the public name. */
export type ToolInput = Omit<RegisteredTool, 'name' | 'originalName'> & {
  /** Name of the tool on its server. */
  name: string;
  /** Public name to use as is (skips namespacing); registering it twice for different tools throws `TOOL_CONFLICT`. */
  publicName?: string;
  /** Short name standing in for the server in the public name (config's per-server `prefix`). @default the registry's `naming.prefixes[server]`, else the server name */
  prefix?: string;
};

/** A change to the registry. */
export type ToolRegistryEvent =
  | { type: 'added'; tool: RegisteredTool }
  | { type: 'removed'; tool: RegisteredTool }
  | { type: 'updated'; tool: RegisteredTool; previous: RegisteredTool };

/** Listener of registry changes. */
export type ToolRegistryListener = (event: ToolRegistryEvent) => void;

/** The registry's interface (implementation: `createToolRegistry`). */
export interface ToolRegistry {
  /** Adds a tool, or updates it when (server, name) is already registered. */
  register(tool: ToolInput): RegisteredTool;
  /** Registers many tools of one server. */
  registerMany(server: string, tools: Array<Omit<ToolInput, 'server'>>): RegisteredTool[];
  /** Makes a server's tools exactly `tools` (after `tools/list_changed`): adds, updates, removes. */
  replaceServer(
    server: string,
    tools: Array<Omit<ToolInput, 'server'>>,
  ): { added: RegisteredTool[]; updated: RegisteredTool[]; removed: RegisteredTool[] };
  /** Removes a tool by public name. */
  unregister(publicName: string): boolean;
  /** Removes every tool of a server; returns how many. */
  unregisterServer(server: string): number;
  get(publicName: string): RegisteredTool | undefined;
  getByOriginal(server: string, originalName: string): RegisteredTool | undefined;
  /** Maps a public name back to where it came from. */
  resolve(publicName: string): { server: string; originalName: string } | undefined;
  has(publicName: string): boolean;
  /** The registered tools: all, one server's, or (`modelFacing: true`) only those a model may see. */
  list(filter?: ToolListFilter): RegisteredTool[];
  servers(): string[];
  readonly size: number;
  /** Subscribes to changes; returns the unsubscribe function. */
  subscribe(listener: ToolRegistryListener): () => void;
}

/** Which tools {@link ToolRegistry.list} returns. */
export interface ToolListFilter {
  /** Only this server's tools. @default every server */
  server?: string;
  /** Only tools a model may see (core's `isModelFacing`: app-only tools left out). @default false */
  modelFacing?: boolean;
}

/** Options of {@link createToolRegistry}. */
export interface ToolRegistryOptions {
  /** How public names are made from (server, tool). @default { style: 'mcp__{server}__{tool}', maxLength: 64 } */
  naming?: ToolNamingOptions;
  /** Where listener failures and duplicate tools are reported. @default silentLogger */
  logger?: Logger;
}

type ToolBatchInput = Omit<ToolInput, 'server'>;

interface Entry {
  tool: RegisteredTool;
  /** The name before collision suffixing: a tool keeps its public name while this stays the same. */
  baseName: string;
  fingerprint: string;
}

/** A validated tool, named and fingerprinted, ready to be applied without further errors. */
interface Prepared {
  key: string;
  baseName: string;
  explicitName: boolean;
  fields: Omit<RegisteredTool, 'name'>;
  fingerprint: string;
}

type ApplyOutcome =
  | { change: 'added' | 'updated' | 'unchanged'; tool: RegisteredTool }
  | { change: 'renamed'; tool: RegisteredTool; previous: RegisteredTool };

const keySeparator = '\u0000';

function toolKey(server: string, originalName: string): string {
  return server + keySeparator + originalName;
}

/**
 * JSON with sorted keys, so two structurally equal definitions give the same fingerprint whatever
 * their key order. Functions are left out: a fresh `execute` closure is not a change of the tool.
 */
function stableStringify(value: unknown, seen: WeakSet<object> = new WeakSet()): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || value === undefined) return 'null';
    return JSON.stringify(value) ?? 'null';
  }
  if (seen.has(value)) return '"[Circular]"';
  seen.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => stableStringify(item, seen)).join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined && typeof record[key] !== 'function')
      .sort();
    text = `{${keys.map((key) => `${JSON.stringify(key)}:${stableStringify(record[key], seen)}`).join(',')}}`;
  }
  seen.delete(value);
  return text;
}

/** True when the parts a fingerprint covers are structurally equal (see `json-equal.ts`). */
function sameFingerprintedFields(a: Omit<RegisteredTool, 'name'>, b: Omit<RegisteredTool, 'name'>): boolean {
  return (
    a.title === b.title &&
    a.description === b.description &&
    sameJsonValue(a.inputSchema, b.inputSchema) &&
    sameJsonValue(a.outputSchema, b.outputSchema) &&
    sameJsonValue(a.annotations, b.annotations) &&
    sameJsonValue(a.app, b.app) &&
    sameJsonValue(a.meta, b.meta)
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Creates the in-memory tool registry. Lookups by public name and by (server, original name) are
 * single Map reads; registering is O(size of the tool) (naming plus a fingerprint of its schema),
 * independent of how many tools are registered.
 */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const naming: ToolNamingOptions = { ...options.naming };
  const maxLength = checkMaxLength(naming.maxLength ?? defaultToolNameMaxLength);
  const logger = options.logger ?? silentLogger;

  const byName = new Map<string, Entry>();
  const byServer = new Map<string, Map<string, Entry>>();
  // Copy-on-write, so a listener that unsubscribes (or subscribes) while an event is delivered
  // does not disturb the delivery in progress.
  let listeners: ToolRegistryListener[] = [];

  function emit(event: ToolRegistryEvent): void {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        // A faulty subscriber (an index, a server) must not stop the registry or the others.
        logger.error(
          {
            error: error instanceof Error ? error.message : String(error),
            event: event.type,
            tool: event.tool.name,
          },
          'tool registry listener threw; the registry and other listeners carry on',
        );
      }
    }
  }

  function prepare(input: ToolInput): Prepared {
    if (!isPlainObject(input)) {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool registry: a tool must be an object with server, name, description and inputSchema (got ${describeValue(input)}).`,
      });
    }
    const { server, name, publicName, prefix } = input;
    if (typeof server !== 'string' || server === '') {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool registry: tool "${String(name)}" has no server; pass the name of the MCP server (or a local group such as "local").`,
        context: { tool: name },
      });
    }
    if (typeof name !== 'string' || name === '') {
      throw new SwitchboardError({
        code: 'INVALID_TOOL_NAME',
        message: `Tool registry: a tool of server "${server}" has no name (got ${describeValue(name)}); every MCP tool needs a non-empty string name.`,
        context: { server },
      });
    }
    const where = `tool "${name}" of server "${server}"`;
    if (!isPlainObject(input.inputSchema)) {
      throw new SwitchboardError({
        code: 'INVALID_SCHEMA',
        message: `Tool registry: ${where} has no inputSchema object (got ${describeValue(input.inputSchema)}); MCP requires one, at least { "type": "object" }.`,
        context: { server, tool: name },
      });
    }
    if (input.outputSchema !== undefined && !isPlainObject(input.outputSchema)) {
      throw new SwitchboardError({
        code: 'INVALID_SCHEMA',
        message: `Tool registry: ${where} has an outputSchema that is ${describeValue(input.outputSchema)}; it must be a JSON Schema object or absent.`,
        context: { server, tool: name },
      });
    }
    if (input.description !== undefined && typeof input.description !== 'string') {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool registry: ${where} has a description that is ${describeValue(input.description)}; it must be a string or absent.`,
        context: { server, tool: name },
      });
    }
    if (input.app !== undefined && !isPlainObject(input.app)) {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool registry: ${where} has app metadata that is ${describeValue(input.app)}; it must be an object (core's readToolApp of the tool's _meta) or absent.`,
        context: { server, tool: name },
      });
    }
    if (input.execute !== undefined && typeof input.execute !== 'function') {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool registry: ${where} has an execute that is ${describeValue(input.execute)}; it must be a function or absent.`,
        context: { server, tool: name },
      });
    }
    let baseName: string;
    if (publicName !== undefined) {
      if (typeof publicName !== 'string' || publicName === '') {
        throw new SwitchboardError({
          code: 'INVALID_TOOL_NAME',
          message: `Tool registry: ${where} has an empty publicName; leave it out to let the registry name the tool.`,
          context: { server, tool: name },
        });
      }
      baseName = publicName;
    } else {
      baseName = createToolName({ server, tool: name, ...(prefix === undefined ? {} : { prefix }) }, naming);
    }
    const fields: Omit<RegisteredTool, 'name'> = {
      server,
      originalName: name,
      description: input.description ?? '',
      inputSchema: input.inputSchema as JsonSchema,
    };
    if (input.title !== undefined) fields.title = input.title;
    if (input.outputSchema !== undefined) fields.outputSchema = input.outputSchema;
    if (input.annotations !== undefined) fields.annotations = input.annotations;
    if (input.execute !== undefined) fields.execute = input.execute;
    if (input.approval !== undefined) fields.approval = input.approval;
    if (input.app !== undefined) fields.app = input.app;
    if (input.meta !== undefined) fields.meta = input.meta;
    const existing = byServer.get(server)?.get(name);
    return {
      key: toolKey(server, name),
      baseName,
      explicitName: publicName !== undefined,
      fields,
      // A re-listed tool is usually the very definition registered before: compared in place, it
      // keeps that fingerprint without writing the sorted-key text (the text of 1,000 catalogue
      // tools was 30 % of a re-listing's CPU in the client, more than the SDK's own parse).
      fingerprint:
        existing !== undefined && sameFingerprintedFields(existing.tool, fields)
          ? existing.fingerprint
          : stableStringify({
              title: fields.title,
              description: fields.description,
              inputSchema: fields.inputSchema,
              outputSchema: fields.outputSchema,
              annotations: fields.annotations,
              app: fields.app,
              meta: fields.meta,
            }),
    };
  }

  function keyOf(entry: Entry): string {
    return toolKey(entry.tool.server, entry.tool.originalName);
  }

  function checkExplicitName(prepared: Prepared, pending?: Map<string, string>): void {
    if (!prepared.explicitName) return;
    const holder = byName.get(prepared.baseName);
    const holderKey = holder ? keyOf(holder) : pending?.get(prepared.baseName);
    if (holderKey !== undefined && holderKey !== prepared.key) {
      const [server, tool] = holderKey.split(keySeparator);
      throw new SwitchboardError({
        code: 'TOOL_CONFLICT',
        message: `Tool registry: public name "${prepared.baseName}" asked for by tool "${prepared.fields.originalName}" of server "${prepared.fields.server}" is already used by tool "${tool}" of server "${server}"; choose another publicName or leave it out.`,
        context: {
          publicName: prepared.baseName,
          server: prepared.fields.server,
          tool: prepared.fields.originalName,
          holderServer: server,
          holderTool: tool,
        },
      });
    }
  }

  function freeName(baseName: string, key: string): string {
    let name = baseName;
    // The hash is of (server, tool), so a colliding tool's name does not depend on who else is
    // registered; the attempt counter only matters on a hash collision, which is rare.
    for (let attempt = 0; byName.has(name); attempt++) {
      name = appendNameHash(baseName, attempt === 0 ? key : `${key}#${attempt}`, maxLength);
    }
    return name;
  }

  function insert(prepared: Prepared): RegisteredTool {
    const name = freeName(prepared.baseName, prepared.key);
    const tool: RegisteredTool = Object.freeze({ name, ...prepared.fields });
    const entry: Entry = { tool, baseName: prepared.baseName, fingerprint: prepared.fingerprint };
    byName.set(name, entry);
    let group = byServer.get(tool.server);
    if (!group) {
      group = new Map();
      byServer.set(tool.server, group);
    }
    group.set(tool.originalName, entry);
    return tool;
  }

  function remove(entry: Entry): void {
    byName.delete(entry.tool.name);
    const group = byServer.get(entry.tool.server);
    if (group) {
      group.delete(entry.tool.originalName);
      if (group.size === 0) byServer.delete(entry.tool.server);
    }
  }

  /** Applies a prepared tool without emitting; the caller emits, so batches can report in order. */
  function apply(prepared: Prepared): ApplyOutcome {
    const existing = byServer.get(prepared.fields.server)?.get(prepared.fields.originalName);
    if (!existing) return { change: 'added', tool: insert(prepared) };
    if (existing.baseName !== prepared.baseName) {
      // Its public name changes (new prefix or publicName): to name-keyed subscribers this is a
      // different tool, so it is reported as removed plus added rather than updated.
      remove(existing);
      return { change: 'renamed', tool: insert(prepared), previous: existing.tool };
    }
    const tool: RegisteredTool = Object.freeze({ name: existing.tool.name, ...prepared.fields });
    const changed = existing.fingerprint !== prepared.fingerprint;
    if (!changed && existing.tool.execute === tool.execute)
      return { change: 'unchanged', tool: existing.tool };
    // Same entry object in both maps, so updating it in place keeps both lookups consistent.
    existing.tool = tool;
    existing.fingerprint = prepared.fingerprint;
    return { change: changed ? 'updated' : 'unchanged', tool };
  }

  function emitOutcome(outcome: ApplyOutcome, previous?: RegisteredTool): void {
    if (outcome.change === 'added') emit({ type: 'added', tool: outcome.tool });
    else if (outcome.change === 'renamed') {
      emit({ type: 'removed', tool: outcome.previous });
      emit({ type: 'added', tool: outcome.tool });
    } else if (outcome.change === 'updated' && previous) {
      emit({ type: 'updated', tool: outcome.tool, previous });
    }
  }

  function applyAndEmit(prepared: Prepared): ApplyOutcome {
    const previous = byServer.get(prepared.fields.server)?.get(prepared.fields.originalName)?.tool;
    const outcome = apply(prepared);
    emitOutcome(outcome, previous);
    return outcome;
  }

  /** Validates a whole batch before touching anything, so a bad tool leaves the registry as it was. */
  function prepareBatch(server: string, tools: ToolBatchInput[]): Prepared[] {
    if (typeof server !== 'string' || server === '') {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: 'Tool registry: a server name (non-empty string) is required to register its tools.',
      });
    }
    if (!Array.isArray(tools)) {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool registry: tools of server "${server}" must be an array (got ${describeValue(tools)}).`,
        context: { server },
      });
    }
    const unique = new Map<string, Prepared>();
    for (const [index, tool] of tools.entries()) {
      let prepared: Prepared;
      try {
        prepared = prepare({ ...(tool as ToolBatchInput), server });
      } catch (error) {
        if (SwitchboardError.isInstance(error)) {
          error.context.index = index;
        }
        throw error;
      }
      if (unique.has(prepared.key)) {
        logger.warn(
          { server, tool: prepared.fields.originalName },
          'server listed the same tool name twice; the later definition is kept',
        );
        unique.delete(prepared.key);
      }
      unique.set(prepared.key, prepared);
    }
    const batch = [...unique.values()];
    const pending = new Map<string, string>();
    for (const prepared of batch) {
      checkExplicitName(prepared, pending);
      if (prepared.explicitName) pending.set(prepared.baseName, prepared.key);
    }
    return batch;
  }

  const registry: ToolRegistry = {
    register(input) {
      const prepared = prepare(input);
      checkExplicitName(prepared);
      return applyAndEmit(prepared).tool;
    },

    registerMany(server, tools) {
      return prepareBatch(server, tools).map((prepared) => applyAndEmit(prepared).tool);
    },

    replaceServer(server, tools) {
      const batch = prepareBatch(server, tools);
      const keep = new Set(batch.map((prepared) => prepared.fields.originalName));
      const result = {
        added: [] as RegisteredTool[],
        updated: [] as RegisteredTool[],
        removed: [] as RegisteredTool[],
      };
      // Removals first, so names they free are available to the tools that follow.
      const group = byServer.get(server);
      if (group) {
        for (const entry of [...group.values()]) {
          if (keep.has(entry.tool.originalName)) continue;
          remove(entry);
          result.removed.push(entry.tool);
          emit({ type: 'removed', tool: entry.tool });
        }
      }
      for (const prepared of batch) {
        const outcome = applyAndEmit(prepared);
        if (outcome.change === 'added') result.added.push(outcome.tool);
        else if (outcome.change === 'updated') result.updated.push(outcome.tool);
        else if (outcome.change === 'renamed') {
          result.removed.push(outcome.previous);
          result.added.push(outcome.tool);
        }
      }
      return result;
    },

    unregister(publicName) {
      const entry = byName.get(publicName);
      if (!entry) return false;
      remove(entry);
      emit({ type: 'removed', tool: entry.tool });
      return true;
    },

    unregisterServer(server) {
      const group = byServer.get(server);
      if (!group) return 0;
      const entries = [...group.values()];
      for (const entry of entries) remove(entry);
      for (const entry of entries) emit({ type: 'removed', tool: entry.tool });
      return entries.length;
    },

    get(publicName) {
      return byName.get(publicName)?.tool;
    },

    getByOriginal(server, originalName) {
      return byServer.get(server)?.get(originalName)?.tool;
    },

    resolve(publicName) {
      const tool = byName.get(publicName)?.tool;
      return tool ? { server: tool.server, originalName: tool.originalName } : undefined;
    },

    has(publicName) {
      return byName.has(publicName);
    },

    list(filter) {
      let tools: RegisteredTool[];
      if (filter?.server !== undefined) {
        const group = byServer.get(filter.server);
        tools = group ? Array.from(group.values(), (entry) => entry.tool) : [];
      } else {
        tools = Array.from(byName.values(), (entry) => entry.tool);
      }
      return filter?.modelFacing === true ? tools.filter(isModelFacing) : tools;
    },

    servers() {
      return [...byServer.keys()];
    },

    get size() {
      return byName.size;
    },

    subscribe(listener) {
      if (typeof listener !== 'function') {
        throw new SwitchboardError({
          code: 'INVALID_ARGUMENT',
          message: `Tool registry: subscribe needs a function (got ${describeValue(listener)}).`,
        });
      }
      listeners = [...listeners, listener];
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        listeners = listeners.filter((candidate) => candidate !== listener);
      };
    },
  };
  return registry;
}

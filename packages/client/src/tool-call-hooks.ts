/**
 * What `connectMcp` records besides running a call: the public `afterToolCall` hook's event, and
 * the registry store's usage, servers and tools (the observe link reports each call, once). A
 * store that fails is logged once and then left alone, so the client keeps working without
 * persistence.
 */

import {
  classifyToolKind,
  type Logger,
  type RegisteredTool,
  type RegistryStore,
  type StoredTool,
  SwitchboardError,
} from '@switchboard/core';
import type { ServerEntry } from './config/server-entry.js';
import type { ServerStatus } from './server-status.js';
import { hashValue } from './store-hash.js';

/** One finished tool call, as the `afterToolCall` hook sees it. */
export interface ToolCallEvent {
  server: string;
  /** Name on the server. */
  tool: string;
  /** Public (namespaced) name. */
  publicName: string;
  /** False when the call threw or the server answered `isError`. */
  ok: boolean;
  durationMs: number;
  /** What went wrong, when the call threw. */
  error?: SwitchboardError;
}

/** Runs after every tool call through `connectMcp`; what it throws or rejects with is logged, never passed on. */
export type AfterToolCallHook = (event: ToolCallEvent) => void | Promise<void>;

/** Store access that turns itself off at the first failure. */
export interface StoreRecorder {
  /** Recording is on (a store was given and has not failed). */
  readonly active: boolean;
  recordCall(event: ToolCallEvent): void;
  recordConnect(server: string, entry: ServerEntry, status: ServerStatus): void;
  recordTools(server: string, tools: RegisteredTool[]): void;
  /** Tools the store knows for a server whose config has not changed since; empty when unknown or failing. */
  knownTools(server: string, entry: ServerEntry): Promise<StoredTool[]>;
  /** Resolves once every write queued so far has landed (or failed). */
  flush(): Promise<void>;
}

/** Hash of a server entry as stored: secret values (env, headers) go in only hashed. */
export function hashServerEntry(entry: ServerEntry): string {
  // `enabled` says whether to connect, not what the server is: toggling it keeps the stored tools.
  const { enabled: _enabled, ...identity } = entry;
  return hashValue(identity);
}

/** Wraps the store so a failing one is logged once and then skipped. */
export function createStoreRecorder(store: RegistryStore | undefined, logger: Logger): StoreRecorder {
  let failed = store === undefined;
  let pending: Promise<unknown> = Promise.resolve();
  const disable = (error: unknown): void => {
    if (failed) return;
    failed = true;
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn(
      { store: store?.location, code: SwitchboardError.isInstance(error) ? error.code : undefined },
      `registry store unavailable; continuing without persistence: ${reason}`,
    );
  };
  const run = (write: (target: RegistryStore) => unknown): void => {
    if (failed || !store) return;
    // Writes are queued so a server's tools land before the calls that use them, and each waits for
    // the next turn of the event loop: a synchronous SQLite write must not delay the caller that
    // the finished call is about to resume.
    pending = pending.then(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (failed) return;
      try {
        await write(store);
      } catch (error) {
        disable(error);
      }
    });
  };
  return {
    get active() {
      return !failed;
    },
    recordCall(event) {
      run((target) =>
        target.recordCall({
          server: event.server,
          tool: event.tool,
          publicName: event.publicName,
          ok: event.ok,
          durationMs: event.durationMs,
        }),
      );
    },
    recordConnect(server, entry, status) {
      const at = status.lastError?.at ?? new Date().toISOString();
      const ok = status.state === 'connected';
      run((target) =>
        target.recordServer({
          name: server,
          configHash: hashServerEntry(entry),
          transport: status.transport,
          lastConnect: ok
            ? { ok, at }
            : {
                ok,
                at,
                ...(status.lastError
                  ? { errorCode: status.lastError.code, errorMessage: status.lastError.message }
                  : {}),
              },
          ...(status.serverInfo ? { serverInfo: status.serverInfo } : {}),
        }),
      );
    },
    recordTools(server, tools) {
      // Restored tools are the store's own copy: writing them back would only move last-seen.
      if (tools.some((tool) => tool.meta?.restored === true)) return;
      run((target) =>
        target.recordTools(
          server,
          tools.map((tool) => ({
            originalName: tool.originalName,
            publicName: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
            kind: classifyToolKind(tool),
            ...(tool.title === undefined ? {} : { title: tool.title }),
            ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
          })),
        ),
      );
    },
    async flush() {
      await pending;
    },
    async knownTools(server, entry) {
      if (failed || !store) return [];
      try {
        const servers = await store.listServers();
        const known = servers.find((candidate) => candidate.name === server);
        if (!known || known.configHash !== hashServerEntry(entry)) return [];
        return await store.listTools({ server });
      } catch (error) {
        disable(error);
        return [];
      }
    },
  };
}

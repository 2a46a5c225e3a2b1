/**
 * What a client remembers about MCP servers and their tools between sessions, behind a small
 * versioned interface so that a SQLite file, a shared database or a test double can stand behind it.
 * Methods may answer synchronously or with a promise: a local file answers at once, a remote
 * database cannot.
 */

import type { ToolKind } from './classify-tool-kind.js';
import type { JsonSchema, ToolAnnotations } from './tool-definition.js';
import type { ToolTrustStore } from './trust/tool-trust-store.js';

/** A value now, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** The outcome of the last connection attempt to a server. */
export interface StoredConnectResult {
  ok: boolean;
  /** Error code when it failed. */
  errorCode?: string;
  /** Redacted error message when it failed. */
  errorMessage?: string;
  /** ISO time of the attempt. */
  at: string;
}

/** A server as the store knows it. */
export interface StoredServer {
  name: string;
  /** Hash of the server's config (secret values only ever enter it hashed). */
  configHash: string;
  /** How the server is reached: `stdio`, `http`, `sse` or `ws`. */
  transport: string;
  lastConnect?: StoredConnectResult;
  /** Name and version the server gave in `initialize`. */
  serverInfo?: { name: string; version: string };
}

/** A tool as the store knows it. */
export interface StoredTool {
  server: string;
  /** Name on its server. */
  originalName: string;
  /** Public (namespaced) name it had when last seen. */
  publicName: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  /** Hash of the input schema, to notice a changed tool. */
  schemaHash: string;
  annotations?: ToolAnnotations;
  kind: ToolKind;
  /** ISO times. */
  firstSeenAt: string;
  lastSeenAt: string;
}

/** A tool to record (times are the store's). */
export type StoredToolInput = Omit<StoredTool, 'server' | 'schemaHash' | 'firstSeenAt' | 'lastSeenAt'> & {
  /** Computed by the store when absent. */
  schemaHash?: string;
};

/** One finished tool call. */
export interface ToolCallRecord {
  server: string;
  /** Name on its server. */
  tool: string;
  publicName: string;
  ok: boolean;
  durationMs: number;
  /** ISO time the call ended. @default now */
  at?: string;
}

/** Usage of one tool. */
export interface ToolUsage {
  server: string;
  tool: string;
  publicName: string;
  calls: number;
  errors: number;
  /** ISO time of the last call. */
  lastUsedAt?: string;
  /** Latency percentiles over the most recent calls (the store's window); absent before any call. */
  latencyP50Ms?: number;
  latencyP95Ms?: number;
  /** Number of calls the percentiles cover. */
  latencySamples: number;
}

/**
 * Persistence of servers, tools and usage. Implementations must keep concurrent writers
 * consistent: a call recorded by two processes at once counts twice.
 */
export interface RegistryStore {
  /** Version of this interface the implementation follows. */
  readonly specificationVersion: 'v1';
  /** Where the data lives (a path, a URL, `:memory:`), for messages. */
  readonly location: string;
  /** Records a server's config, transport and last connection attempt (fields given replace stored ones). */
  recordServer(server: {
    name: string;
    configHash: string;
    transport: string;
    lastConnect?: StoredConnectResult;
    serverInfo?: { name: string; version: string };
  }): MaybePromise<void>;
  /** Replaces the tool list of a server: new tools are first seen now, listed ones are seen now, missing ones are dropped. */
  recordTools(server: string, tools: StoredToolInput[]): MaybePromise<void>;
  /** Counts one call. */
  recordCall(call: ToolCallRecord): MaybePromise<void>;
  /** Servers, by name. */
  listServers(): MaybePromise<StoredServer[]>;
  /** Tools, of one server or all. */
  listTools(filter?: { server?: string }): MaybePromise<StoredTool[]>;
  /** Usage per tool, of one server or all, most called first. */
  listUsage(filter?: { server?: string }): MaybePromise<ToolUsage[]>;
  /** Releases the store (idempotent). */
  close(): MaybePromise<void>;
  /**
   * Where tool trust decisions (pinned definitions, quarantine) are kept beside the registry, shared
   * by every process on the same store. Optional: without it a connection pins in memory.
   */
  readonly trustStore?: ToolTrustStore;
}

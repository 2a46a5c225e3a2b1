/**
 * The tool registry: every tool Switchboard knows, under a unique public name, grouped by server.
 * Client, server and tool selection all read it and subscribe to its change events.
 */
import type { RegisteredTool } from './tool-definition.js';

/** A tool to register: `name` is the tool's name on its server; the registry derives the public name. */
export type ToolInput = Omit<RegisteredTool, 'name' | 'originalName'> & {
  /** Name of the tool on its server. */
  name: string;
  /** Public name to use as is (skips namespacing). */
  publicName?: string;
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
  list(filter?: { server?: string }): RegisteredTool[];
  servers(): string[];
  readonly size: number;
  /** Subscribes to changes; returns the unsubscribe function. */
  subscribe(listener: ToolRegistryListener): () => void;
}

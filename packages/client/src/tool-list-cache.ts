/**
 * The tool list of one connection: walked page by page once, kept, and fetched again only when
 * asked and when the server's cache hint (`ttlMs`, 2026-07-28) has run out or a `list_changed`
 * invalidated it. A `list_changed` also refreshes it after a quiet period and tells the listeners.
 * On a modern HTTP connection it keeps each tool's `x-mcp-header` declarations for the calls'
 * `Mcp-Param-*` headers, and leaves out tools whose declarations are invalid (SEP-2243: a client
 * must not offer them).
 */
import type { Tool } from '@modelcontextprotocol/client';
import { type Logger, type SwitchboardError, sameJsonValue } from '@switchboard/core';
import { walkPages } from './list-pages.js';
import { declaresMcpParams, type McpParamDeclaration, scanMcpParams } from './mcp-param-headers.js';

/** Longest cache hint honoured (a day, as the SDK caps it). */
const maxTtlMs = 86_400_000;

/** Options of {@link ToolListCache}. */
export interface ToolListCacheOptions {
  server: string;
  /** The server declared tools (otherwise the list is empty without asking). */
  hasTools: boolean;
  /** Modern over HTTP: keep `x-mcp-header` declarations, leave out tools with invalid ones. */
  mirrorHeaders: boolean;
  /** One page of `tools/list` (its result as it came, traced). */
  fetchPage(cursor: string | undefined): Promise<Record<string, unknown>>;
  /** The error a failed list rejects with. */
  explain(error: unknown): SwitchboardError;
  logger: Logger;
  /** Quiet period before refreshing after `list_changed`. */
  debounceMs: number;
}

/** The cached tool list of one connection. */
export class ToolListCache {
  private tools: Tool[] | undefined;
  private loading: Promise<Tool[]> | undefined;
  /** Until when the list is fresh (the server's `ttlMs`); 0: fetch again when asked. */
  private freshUntil = 0;
  private readonly declarations = new Map<string, McpParamDeclaration[]>();
  private readonly listeners = new Set<(tools: Tool[]) => void>();
  private debounce: NodeJS.Timeout | undefined;
  /** A `list_changed` came while a list was being fetched: refresh once that fetch is done. */
  private changedWhileLoading = false;

  constructor(private readonly options: ToolListCacheOptions) {}

  /** The tools; `refresh` fetches them again unless the server's cache hint says they are fresh. */
  list(refresh = false): Promise<Tool[]> {
    const cached = this.tools;
    if (cached !== undefined && (!refresh || Date.now() < this.freshUntil)) return Promise.resolve(cached);
    if (!this.options.hasTools) {
      this.tools = [];
      return Promise.resolve(this.tools);
    }
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
      if (this.changedWhileLoading) {
        this.changedWhileLoading = false;
        this.freshUntil = 0;
        this.scheduleRefresh();
      }
    });
    return this.loading;
  }

  /** The `x-mcp-header` declarations of a tool (modern HTTP), if it has any. */
  headerDeclarations(tool: string): McpParamDeclaration[] | undefined {
    return this.declarations.get(tool);
  }

  /**
   * The server said the list changed: forget it, and refresh after the quiet period. While a list
   * is being fetched, the refresh waits for that fetch and follows it: the answer under way may
   * predate the change. A notification is handled a few promise hops after it is read, so one read
   * in the same chunk right after the list's answer comes while that answer is still being taken
   * in; trusting that answer lost a rug pull announced 10 ms after the first listing on a loaded
   * machine (the change was never fetched).
   */
  changed(): void {
    this.freshUntil = 0;
    if (this.loading !== undefined) {
      this.changedWhileLoading = true;
      return;
    }
    this.scheduleRefresh();
  }

  private scheduleRefresh(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.list(true).then(
        (tools) => {
          for (const listener of this.listeners) listener(tools);
        },
        (error: unknown) =>
          this.options.logger.warn(
            { server: this.options.server },
            `refreshing tools failed: ${(error as Error).message}`,
          ),
      );
    }, this.options.debounceMs);
    this.debounce.unref?.();
  }

  /** Called with the new list after each refresh that `list_changed` caused. */
  onChanged(listener: (tools: Tool[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops refreshing and telling. */
  close(): void {
    this.changedWhileLoading = false;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = undefined;
    this.listeners.clear();
  }

  private async load(): Promise<Tool[]> {
    let result: Record<string, unknown>;
    try {
      result = await walkPages('tools/list', 'tools', (cursor) => this.options.fetchPage(cursor));
    } catch (error) {
      throw this.options.explain(error);
    }
    const ttl = typeof result.ttlMs === 'number' ? Math.min(Math.max(0, result.ttlMs), maxTtlMs) : 0;
    this.freshUntil = Date.now() + ttl;
    const tools = this.keep(reuseUnchanged(this.tools, result.tools as Tool[]));
    this.tools = tools;
    return tools;
  }

  /** The tools to offer, with their header declarations noted (modern HTTP only). */
  private keep(tools: Tool[]): Tool[] {
    this.declarations.clear();
    if (!this.options.mirrorHeaders) return tools;
    return tools.filter((tool) => {
      if (!declaresMcpParams(tool.inputSchema)) return true;
      const scan = scanMcpParams(tool.inputSchema);
      if (!scan.valid) {
        this.options.logger.warn(
          { server: this.options.server, tool: tool.name },
          `leaving out tool "${tool.name}": its x-mcp-header declaration is invalid (${scan.reason})`,
        );
        return false;
      }
      if (scan.declarations.length > 0) this.declarations.set(tool.name, scan.declarations);
      return true;
    });
  }
}

/**
 * The listed tools, each replaced by the object listed before when it is structurally the same
 * (every field, `_meta` included). A re-listing usually repeats most definitions: with the same
 * objects, trust's review and the registry's change check each see the same `inputSchema` object
 * and stop at once, instead of walking every schema twice more (a re-listing of 1,000 catalogue
 * tools walked them three times: here, in trust and in the registry).
 */
function reuseUnchanged(previous: readonly Tool[] | undefined, listed: Tool[]): Tool[] {
  if (previous === undefined || previous.length === 0) return listed;
  // Looked up by name only when the order differs (a re-listing usually keeps it).
  let byName: Map<string, Tool> | undefined;
  const beforeOf = (tool: Tool, index: number): Tool | undefined => {
    if (previous[index]?.name === tool.name) return previous[index];
    byName ??= new Map(previous.map((entry) => [entry.name, entry]));
    return byName.get(tool.name);
  };
  return listed.map((tool, index) => {
    const before = beforeOf(tool, index);
    return before !== undefined && sameJsonValue(before, tool) ? before : tool;
  });
}

/**
 * The resource, template and prompt lists of a gateway's upstreams, gathered for one downstream
 * list request:
 * - each upstream gets a bounded wait: one that does not answer in time is left out of this
 *   answer (logged), so a hung upstream cannot stall every list; its late answer is kept for the
 *   next request when it may be cached;
 * - a list is cached while the upstream promises to announce its changes (a 2025 server that
 *   declares `listChanged`: its notifications drop the entry). A 2026-07-28 upstream's list is
 *   cached by its client as the server's cache hints (`ttlMs`) allow, and evicted on
 *   `list_changed` there; a reconnected upstream (a new client) is fetched afresh;
 * - concurrent requests for the same list share one upstream request.
 */
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { Logger } from '@switchboard/core';

/** The kinds of list a gateway serves from its upstreams. */
export type UpstreamListKind = 'resources' | 'resourceTemplates' | 'prompts';

/** The capability (and its `listChanged` promise) behind each kind. */
const capabilityOf: Readonly<Record<UpstreamListKind, 'resources' | 'prompts'>> = {
  resources: 'resources',
  resourceTemplates: 'resources',
  prompts: 'prompts',
};

const methodOf: Readonly<Record<UpstreamListKind, string>> = {
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
  prompts: 'prompts/list',
};

/** What the lists need to know of an upstream's client. */
export interface ListedUpstream {
  readonly era?: 'modern' | 'legacy';
  readonly capabilities?: ServerCapabilities | undefined;
  /** Present when the client tells of changes (so a kept list can be dropped in time). */
  onResourcesChanged?: unknown;
  onPromptsChanged?: unknown;
}

/** Options of {@link UpstreamLists}. */
export interface UpstreamListsOptions {
  /** How long one upstream may take to answer a list before it is left out. */
  timeoutMs: number;
  logger: Logger;
}

interface Entry {
  client: ListedUpstream;
  /** Bumped by each change: an answer fetched before it is not kept. */
  generation: number;
  items?: unknown[];
  pending?: Promise<unknown[]>;
}

const timedOut = Symbol('timed out');

/** The lists of every upstream, cached and bounded. */
export class UpstreamLists {
  readonly #options: UpstreamListsOptions;
  readonly #entries = new Map<string, Entry>();

  constructor(options: UpstreamListsOptions) {
    this.#options = options;
  }

  /** Every upstream's items of `kind`; upstreams that fail or are too slow are logged and left out. */
  async gather<T>(
    kind: UpstreamListKind,
    upstreams: ReadonlyMap<string, ListedUpstream>,
    fetch: (client: ListedUpstream) => Promise<T[]>,
  ): Promise<Array<{ server: string; item: T }>> {
    const capability = capabilityOf[kind];
    const lists = await Promise.all(
      [...upstreams].map(async ([server, client]) => {
        if (client.capabilities !== undefined && client.capabilities[capability] === undefined) return [];
        const items = await this.#listOf(
          kind,
          server,
          client,
          fetch as (client: ListedUpstream) => Promise<unknown[]>,
        );
        return (items as T[]).map((item) => ({ server, item }));
      }),
    );
    return lists.flat();
  }

  /** An upstream announced that its lists of `capability` changed. */
  changed(server: string, capability: 'resources' | 'prompts'): void {
    for (const kind of Object.keys(capabilityOf) as UpstreamListKind[]) {
      if (capabilityOf[kind] !== capability) continue;
      const entry = this.#entries.get(keyOf(kind, server));
      if (entry === undefined) continue;
      entry.generation += 1;
      delete entry.items;
      delete entry.pending;
    }
  }

  /** Drops what is kept for upstreams no longer in the set. */
  retain(servers: ReadonlySet<string>): void {
    for (const key of [...this.#entries.keys()]) {
      if (!servers.has(key.slice(key.indexOf(' ') + 1))) this.#entries.delete(key);
    }
  }

  async #listOf(
    kind: UpstreamListKind,
    server: string,
    client: ListedUpstream,
    fetch: (client: ListedUpstream) => Promise<unknown[]>,
  ): Promise<unknown[]> {
    const key = keyOf(kind, server);
    let entry = this.#entries.get(key);
    if (entry === undefined || entry.client !== client) {
      entry = { client, generation: 0 };
      this.#entries.set(key, entry);
    }
    if (entry.items !== undefined) return entry.items;
    const current = entry;
    if (current.pending === undefined) {
      const generation = current.generation;
      const pending = fetch(client);
      current.pending = pending;
      pending.then(
        (items) => {
          if (current.generation !== generation || this.#entries.get(key) !== current) return;
          delete current.pending;
          if (this.#cacheable(kind, client)) current.items = items;
        },
        () => {
          if (current.pending === pending) delete current.pending;
        },
      );
    }
    return this.#bounded(kind, server, current.pending as Promise<unknown[]>);
  }

  /** The answer of one upstream, or nothing once it took longer than the bound (or failed). */
  async #bounded(kind: UpstreamListKind, server: string, pending: Promise<unknown[]>): Promise<unknown[]> {
    const operation = methodOf[kind];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof timedOut>((resolve) => {
      timer = setTimeout(() => resolve(timedOut), this.#options.timeoutMs);
      timer.unref?.();
    });
    try {
      const answer = await Promise.race([pending, deadline]);
      if (answer !== timedOut) return answer;
      this.#options.logger.warn(
        { server, operation, timeoutMs: this.#options.timeoutMs },
        `gateway: ${operation} of upstream "${server}" did not answer within ${this.#options.timeoutMs} ms; serving the others without its items`,
      );
      return [];
    } catch (error) {
      this.#options.logger.warn(
        { server, operation, error: error instanceof Error ? error.message : String(error) },
        `gateway: ${operation} of upstream "${server}" failed; serving the others`,
      );
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kept until changed: only where the upstream announces its changes (a 2025 server with `listChanged`). */
  #cacheable(kind: UpstreamListKind, client: ListedUpstream): boolean {
    const name = capabilityOf[kind];
    const capability = client.capabilities?.[name] as { listChanged?: boolean } | undefined;
    const told = name === 'resources' ? client.onResourcesChanged : client.onPromptsChanged;
    return client.era === 'legacy' && capability?.listChanged === true && typeof told === 'function';
  }
}

function keyOf(kind: UpstreamListKind, server: string): string {
  return `${kind} ${server}`;
}

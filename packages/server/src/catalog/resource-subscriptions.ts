/**
 * Who watches which resource: one count per URI over every subscriber (2025 sessions'
 * `resources/subscribe`, 2026 listen streams' `resourceSubscriptions`). The provider that serves a
 * URI is asked to watch it when the first subscriber comes and to stop when the last one leaves.
 */
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { ResourceProvider } from './content-provider.js';

/** Subscription counts of one server. */
export class ResourceSubscriptions {
  readonly #providers: readonly ResourceProvider[];
  readonly #watched = new Map<string, { count: number; owner: ResourceProvider }>();

  constructor(providers: readonly ResourceProvider[]) {
    this.#providers = providers;
  }

  /** Adds a subscriber of `uri`; rejects (-32602) when no provider serves it. */
  async add(uri: string): Promise<void> {
    const watched = this.#watched.get(uri);
    if (watched !== undefined) {
      watched.count += 1;
      return;
    }
    for (const provider of this.#providers) {
      if (!provider.subscribable || provider.subscribe === undefined) continue;
      if (!(await provider.subscribe(uri))) continue;
      const raced = this.#watched.get(uri);
      if (raced !== undefined) raced.count += 1;
      else this.#watched.set(uri, { count: 1, owner: provider });
      return;
    }
    throw new ServerError({
      code: ServerErrorCode.ResourceNotFound,
      message: `Resource not found: "${uri}" (no resource or template of this server serves it); call resources/list and resources/templates/list for what it serves.`,
      data: { uri },
    });
  }

  /** Removes a subscriber of `uri`; the owner stops watching it after the last one. */
  async remove(uri: string): Promise<void> {
    const watched = this.#watched.get(uri);
    if (watched === undefined) return;
    watched.count -= 1;
    if (watched.count > 0) return;
    this.#watched.delete(uri);
    await watched.owner.unsubscribe?.(uri);
  }

  /** Number of watched URIs. */
  get size(): number {
    return this.#watched.size;
  }
}

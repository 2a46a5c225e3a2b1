/**
 * Change notifications on a 2026-07-28 connection: they come on `subscriptions/listen` streams
 * the client opens (no server pushes unasked). One stream carries the `list_changed` kinds the
 * server declares; another the updates of the resources subscribed to, opened anew whenever that
 * set changes. A stream is open once the server acknowledges it (bounded: a server that never
 * does must not hold a connect up); the notifications it carries reach the connection's handlers
 * as a 2025 server's would.
 */
import { SdkError, SdkErrorCode, type SubscriptionFilter } from '@modelcontextprotocol/client';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { RequestEngine } from './request-engine.js';

/** One open stream. */
export interface ChangeSubscription {
  /** What the server agreed to send (its acknowledgement). */
  readonly honored: SubscriptionFilter;
  close(): Promise<void>;
}

/**
 * Opens a `subscriptions/listen` stream; resolves once the server acknowledged it within
 * `ackTimeoutMs`. Over a transport that delivers synchronously (the SDK's `InMemoryTransport`),
 * the acknowledgement (or the stream's end) arrives before `openStream` has returned: it settles
 * the promise then, and no timer is set after it.
 */
export function listen(
  engine: RequestEngine,
  filter: SubscriptionFilter,
  ackTimeoutMs: number,
): Promise<ChangeSubscription> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    // Assigned when `openStream` returns; the subscription's `close` reads it only when called.
    let closeStream: () => Promise<void> = async () => {};
    const close = () => closeStream();
    closeStream = engine.openStream(
      'subscriptions/listen',
      { notifications: filter },
      {
        acknowledged(params) {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ honored: (params.notifications ?? {}) as SubscriptionFilter, close });
        },
        ended(error) {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error);
        },
      },
    );
    if (settled || !engine.open) return;
    timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      void close();
      reject(
        new SdkError(SdkErrorCode.RequestTimeout, 'subscriptions/listen ack timed out', {
          timeout: ackTimeoutMs,
        }),
      );
    }, ackTimeoutMs);
  });
}

/** The subscriptions of one modern connection: `list_changed` kinds and subscribed resources. */
export class ChangeSubscriptions {
  private changes: ChangeSubscription | undefined;
  private resources: ChangeSubscription | undefined;
  private readonly subscribed = new Set<string>();

  constructor(
    private readonly engine: RequestEngine,
    private readonly server: string,
    /** How long a server may take to acknowledge a stream. */
    private readonly ackTimeoutMs: number,
  ) {}

  /** Opens the stream of the `list_changed` kinds in `filter` (nothing when it is empty) within `ackTimeoutMs`. */
  async listenForChanges(filter: SubscriptionFilter, ackTimeoutMs: number): Promise<void> {
    if (Object.keys(filter).length === 0) return;
    this.changes = await listen(this.engine, filter, ackTimeoutMs);
  }

  /** Adds or removes a subscribed resource: the stream of updates is opened anew for the new set. */
  async setResource(uri: string, subscribed: boolean): Promise<void> {
    if (subscribed) this.subscribed.add(uri);
    else this.subscribed.delete(uri);
    const previous = this.resources;
    this.resources = undefined;
    if (this.subscribed.size > 0) {
      const wanted = [...this.subscribed];
      const subscription = await listen(this.engine, { resourceSubscriptions: wanted }, this.ackTimeoutMs);
      const honored = new Set(subscription.honored.resourceSubscriptions ?? []);
      const refused = wanted.filter((item) => !honored.has(item));
      if (refused.length > 0) {
        await subscription.close();
        for (const item of refused) this.subscribed.delete(item);
        // The stream before this one still carries the others.
        this.resources = previous;
        throw new ClientError({
          code: ClientErrorCode.ServerError,
          message: `MCP server "${this.server}" did not agree to send updates for ${refused.join(', ')} (it acknowledged the subscription without them: it may not support resource subscriptions). Read the resource again when you need it.`,
          context: { server: this.server, refused },
        });
      }
      this.resources = subscription;
    }
    await previous?.close();
  }

  async close(): Promise<void> {
    await this.changes?.close().catch(() => {});
    await this.resources?.close().catch(() => {});
  }
}

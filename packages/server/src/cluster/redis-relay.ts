/**
 * `RequestRelay` over Redis pub/sub: an RPC between replicas. A relayed request goes to the
 * target's replica channel with a correlation id; the target answers on the sender's replica
 * channel: an acknowledgement at once, partials, keep-alives while its handler runs, then the
 * reply. PUBLISH counting no subscriber means no replica by that id is running: the relay fails at
 * once instead of waiting out its timeout. The sender's timeout is one of silence, so a long call
 * that keeps sending signs of life runs past it.
 *
 * Apart from the key/value state (`redis-cluster-state.ts`), which owns the connections and hands
 * this the messages of the replica channel that are relay messages (`isRelayMessage`).
 */
import { randomUUID } from 'node:crypto';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { ForwardedRequestHandler, ForwardRequestOptions, RequestRelay } from './cluster-state.js';
import { isReplicaId } from './replica-id.js';

/** What travels on a replica channel for a relayed request (besides forwarded responses). */
export type RelayMessage =
  | { relay: 'request'; id: string; from: string; timeoutMs: number; payload: unknown }
  | { relay: 'ack' | 'alive' | 'cancel'; id: string }
  | { relay: 'partial'; id: string; value: unknown }
  | { relay: 'reply'; id: string; value?: unknown; error?: string };

/** Whether a parsed replica-channel message belongs to the relay (forwarded responses do not). */
export function isRelayMessage(value: unknown): value is RelayMessage {
  return (
    typeof (value as RelayMessage | null)?.relay === 'string' &&
    typeof (value as RelayMessage).id === 'string'
  );
}

/** What the relay needs of the Redis state. */
export interface RedisRelayOptions {
  /** This replica's id (the `from` of what it relays). */
  replicaId: string;
  /** Publishes `message` on the channel of `replicaId`; resolves with the number of receivers. */
  publish(replicaId: string, message: RelayMessage): Promise<number>;
  /** Where the state lives (for errors, without credentials). */
  location: string;
}

/** A relay this replica sent and waits on. */
interface PendingRelay {
  /** Restarts the silence timer (an ack, a partial, a keep-alive arrived). */
  alive(): void;
  partial(value: unknown): void;
  /** The target answered that it could not serve the request. */
  refused(why: string): void;
  settle(outcome: { value: unknown } | { error: Error }): void;
}

/** The relay of one replica: what it sent and waits on, and what it answers for others. */
export class RedisRelay implements RequestRelay {
  readonly #options: RedisRelayOptions;
  readonly #pending = new Map<string, PendingRelay>();
  /** Relayed requests this replica is answering: their keep-alive timers and cancellation. */
  readonly #answering = new Map<string, { keepAlive: NodeJS.Timeout; abort: AbortController }>();
  #handler: ForwardedRequestHandler | undefined;
  #closed = false;

  constructor(options: RedisRelayOptions) {
    this.#options = options;
  }

  forwardRequest(replicaId: string, payload: unknown, options: ForwardRequestOptions): Promise<unknown> {
    const id = randomUUID();
    const timeoutMs = Math.max(1, options.timeoutMs);
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cancel = () => {
        this.#options.publish(replicaId, { relay: 'cancel', id }).catch(() => {});
        settle({ error: new Error(`The relay to replica ${replicaId} was cancelled.`) });
      };
      const settle = (outcome: { value: unknown } | { error: Error }) => {
        if (!this.#pending.delete(id)) return;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', cancel);
        if ('error' in outcome) reject(outcome.error);
        else resolve(outcome.value);
      };
      const arm = (waitingFor: string) => {
        clearTimeout(timer);
        timer = setTimeout(
          () => settle({ error: this.#unreachable(replicaId, `no ${waitingFor} within ${timeoutMs} ms`) }),
          timeoutMs,
        );
      };
      this.#pending.set(id, {
        alive: () => arm('sign of life'),
        partial: (value) => {
          arm('sign of life');
          options.onPartial?.(value);
        },
        refused: (why) => settle({ error: this.#unreachable(replicaId, why) }),
        settle,
      });
      arm('acknowledgement');
      if (options.signal?.aborted) return cancel();
      options.signal?.addEventListener('abort', cancel, { once: true });
      const from = this.#options.replicaId;
      this.#options.publish(replicaId, { relay: 'request', id, from, timeoutMs, payload }).then(
        (receivers) => {
          if (receivers === 0)
            settle({ error: this.#unreachable(replicaId, 'no replica by that id is connected to Redis') });
        },
        (error: unknown) => settle({ error: error as Error }),
      );
    });
  }

  onForwardedRequest(handler: ForwardedRequestHandler): () => void {
    this.#handler = handler;
    return () => {
      if (this.#handler === handler) this.#handler = undefined;
    };
  }

  /** A relay message on this replica's channel: a request to answer, or news of one we sent. */
  receive(message: RelayMessage): void {
    if (message.relay === 'cancel') {
      this.#answering.get(message.id)?.abort.abort(new Error('The sender cancelled the relayed request.'));
      return;
    }
    if (message.relay !== 'request') {
      const pending = this.#pending.get(message.id);
      if (pending === undefined) return;
      if (message.relay === 'partial') pending.partial(message.value);
      else if (message.relay === 'reply') {
        if (message.error !== undefined) pending.refused(String(message.error));
        else pending.settle({ value: message.value });
      } else pending.alive();
      return;
    }
    this.#answer(message);
  }

  /** Fails what this replica waits on and stops what it answers. */
  close(): void {
    this.#closed = true;
    for (const relay of this.#pending.values())
      relay.settle({ error: new Error('The cluster state was closed.') });
    for (const { keepAlive, abort } of this.#answering.values()) {
      clearInterval(keepAlive);
      abort.abort(new Error('The cluster state was closed.'));
    }
    this.#answering.clear();
  }

  /** Runs this replica's handler for a relayed request; acknowledges, keeps alive, replies. */
  #answer(message: Extract<RelayMessage, { relay: 'request' }>): void {
    const { id, from } = message;
    if (!isReplicaId(from)) return;
    const send = (reply: RelayMessage) => {
      // Best effort: a reply lost to a Redis outage makes the sender's silence timer fire.
      this.#options.publish(from, reply).catch(() => {});
    };
    const handler = this.#handler;
    if (handler === undefined || this.#closed) {
      send({
        relay: 'reply',
        id,
        error: `replica ${this.#options.replicaId} serves no relayed requests (shutting down?)`,
      });
      return;
    }
    send({ relay: 'ack', id });
    const keepAlive = setInterval(
      () => send({ relay: 'alive', id }),
      Math.max(50, Math.floor(Number(message.timeoutMs) / 3) || 1000),
    );
    keepAlive.unref();
    const abort = new AbortController();
    this.#answering.set(id, { keepAlive, abort });
    let answer: Promise<unknown>;
    try {
      answer = handler(message.payload, {
        from,
        partial: (value) => send({ relay: 'partial', id, value }),
        signal: abort.signal,
      });
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer
      .then(
        (value) => send({ relay: 'reply', id, value }),
        (error: unknown) =>
          send({ relay: 'reply', id, error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        clearInterval(keepAlive);
        this.#answering.delete(id);
      });
  }

  #unreachable(replicaId: string, why: string): ServerError {
    return new ServerError({
      code: ServerErrorCode.ReplicaUnreachable,
      message: `Replica ${replicaId} did not answer a relayed request (${why}): it is gone or stuck.`,
      context: { replica: replicaId, redis: this.#options.location },
    });
  }
}

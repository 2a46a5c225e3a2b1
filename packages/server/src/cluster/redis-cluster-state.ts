/**
 * `ClusterState` on Redis (ioredis), for replicas behind a plain round-robin balancer. Commands
 * fail fast when Redis is unreachable (no offline queue, no retries, a short command timeout):
 * a request that needs shared state is answered 503 at once instead of hanging or silently
 * falling back to per-process state. The key/value state lives here (revocations, stream logs,
 * counters, subscription sets); change events, forwarded responses and relayed requests use pub/sub
 * on a separate connection that ioredis reconnects and re-subscribes on its own, and the RPC of
 * relayed requests is `redis-relay.ts`. A blocking stream tail gets a connection of its own for its
 * lifetime.
 */
import type { ServerEvent } from '@modelcontextprotocol/server';
import type { Logger } from '@switchboard/core';
import { silentLogger } from '@switchboard/core';
import { Redis, type RedisOptions } from 'ioredis';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type {
  ClusterLogEntry,
  ClusterState,
  ForwardedRequestHandler,
  ForwardedResponse,
  ForwardRequestOptions,
  SubscriptionChange,
} from './cluster-state.js';
import { isRelayMessage, RedisRelay } from './redis-relay.js';
import { createRedisTaskOwnerIndex } from './redis-task-owner-index.js';
import { createRedisWebhookStore } from './redis-webhook-store.js';
import { checkReplicaId } from './replica-id.js';
import type { TaskOwnerIndex } from './task-owner-index.js';
import type { WebhookSubscriptionStore } from './webhook-subscription-store.js';

/** Options of {@link createRedisClusterState}. */
export interface RedisClusterStateOptions {
  /** `redis://[user:password@]host:port[/db]` (credentials never reach logs or errors). */
  url: string;
  /** Prefix of every key and channel: replicas of one server share it. @default 'switchboard:' */
  keyPrefix?: string;
  /** This replica's id: letters, digits, `_` and `-` (in request ids and the `x-switchboard-replica` header). */
  replicaId: string;
  /** Where connection trouble is logged. @default silentLogger */
  logger?: Logger;
  /** Longest wait for one command before it fails. @default 1000 */
  commandTimeoutMs?: number;
}

/** A Redis-backed cluster state; `close()` ends its connections. */
export interface RedisClusterState extends ClusterState {
  /** The Redis URL without credentials (for messages). */
  readonly location: string;
  /** The webhook subscriptions, shared through Redis. */
  readonly webhookSubscriptions: WebhookSubscriptionStore;
  /** The relayed tasks' owners, shared through Redis. */
  readonly taskOwners: TaskOwnerIndex;
}

/** A stream tail with nothing new for this long gives up (the replica running it is gone). */
const followSilenceMs = 10 * 60 * 1000;

/** The URL without user name and password. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'redis://<unparseable url>';
  }
}

/** Creates the Redis cluster state and starts connecting (it does not wait for Redis). */
export function createRedisClusterState(options: RedisClusterStateOptions): RedisClusterState {
  if (typeof options?.url !== 'string' || !/^rediss?:\/\//.test(options.url)) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message:
        'createRedisClusterState: url must be a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379).',
    });
  }
  checkReplicaId(options.replicaId, 'createRedisClusterState');
  return new RedisState(options);
}

class RedisState implements RedisClusterState {
  readonly specificationVersion = 'v1' as const;
  readonly replicaId: string;
  readonly shared = true;
  readonly location: string;
  operations = 0;
  readonly webhookSubscriptions: WebhookSubscriptionStore;
  readonly taskOwners: TaskOwnerIndex;
  readonly #url: string;
  readonly #prefix: string;
  readonly #logger: Logger;
  readonly #commands: Redis;
  readonly #subscriber: Redis;
  readonly #eventChannel: string;
  readonly #replicaChannel: string;
  readonly #eventListeners = new Set<(event: ServerEvent) => void>();
  readonly #responseListeners = new Set<(response: ForwardedResponse) => void>();
  readonly #subscriptionListeners = new Set<(change: SubscriptionChange) => void>();
  readonly #tails = new Set<Redis>();
  readonly #relay: RedisRelay;
  #publishFailing = false;
  #down = false;
  /** Resolves once the first connection attempt succeeded or failed (commands before it wait for it). */
  #firstAttempt: Promise<void>;
  #closed = false;

  constructor(options: RedisClusterStateOptions) {
    this.#url = options.url;
    this.location = redactRedisUrl(options.url);
    this.replicaId = options.replicaId;
    this.#prefix = options.keyPrefix ?? 'switchboard:';
    this.#logger = options.logger ?? silentLogger;
    this.#eventChannel = `${this.#prefix}events`;
    this.#replicaChannel = `${this.#prefix}replica:${this.replicaId}`;
    this.#relay = new RedisRelay({
      replicaId: this.replicaId,
      location: this.location,
      publish: (target, message) =>
        this.#run(() => this.#commands.publish(`${this.#prefix}replica:${target}`, JSON.stringify(message))),
    });
    const common = {
      connectTimeout: 2000,
      // Keep reconnecting (Redis comes back without a restart of ours), at most once a second.
      retryStrategy: (times: number) => Math.min(times * 100, 1000),
      lazyConnect: false,
      // `satisfies`, not a type annotation: ioredis's RedisOptions is a Partial whose spread its own
      // overloads refuse under exactOptionalPropertyTypes.
    } satisfies RedisOptions;
    this.#commands = new Redis(this.#url, {
      ...common,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1000,
    });
    // The subscriber queues its SUBSCRIBE until connected and re-subscribes after reconnects.
    this.#subscriber = new Redis(this.#url, { ...common, autoResubscribe: true, maxRetriesPerRequest: null });
    // Requests right after start wait for the first connect; after that, failures are immediate.
    this.#firstAttempt = new Promise<void>((resolve) => {
      this.#commands.once('ready', () => resolve());
      this.#commands.once('error', () => resolve());
      this.#commands.once('end', () => resolve());
    });
    for (const connection of [this.#commands, this.#subscriber]) {
      connection.on('error', (error: Error) => this.#noteDown(error));
      connection.on('ready', () => this.#noteUp());
      // A server that shuts down cleanly closes the connection without an error event first.
      connection.on('close', () => this.#noteDown(new Error('connection closed')));
    }
    this.webhookSubscriptions = createRedisWebhookStore({
      commands: this.#commands,
      prefix: this.#prefix,
      run: (command) => this.#run(command),
    });
    this.taskOwners = createRedisTaskOwnerIndex({
      commands: this.#commands,
      prefix: this.#prefix,
      run: (command) => this.#run(command),
    });
    this.#subscriber.on('message', (channel: string, text: string) => this.#received(channel, text));
    this.#subscriber.subscribe(this.#eventChannel, this.#replicaChannel).catch((error: unknown) => {
      this.#noteDown(error as Error);
    });
  }

  async ready(): Promise<boolean> {
    try {
      await this.#run(() => this.#commands.ping());
      return true;
    } catch {
      return false;
    }
  }

  async revokeSession(sessionKey: string, ttlMs: number): Promise<void> {
    await this.#run(() =>
      this.#commands.set(`${this.#prefix}revoked:${sessionKey}`, '1', 'PX', Math.max(1, ttlMs)),
    );
  }

  async isSessionRevoked(sessionKey: string): Promise<boolean> {
    return (await this.#run(() => this.#commands.get(`${this.#prefix}revoked:${sessionKey}`))) !== null;
  }

  async appendLog(logKey: string, entry: ClusterLogEntry, ttlMs: number): Promise<void> {
    const key = `${this.#prefix}log:${logKey}`;
    const fields = 'end' in entry ? ['e', '1'] : ['m', JSON.stringify(entry.message)];
    this.operations += 1;
    await this.#run(async () => {
      const results = await this.#commands
        .pipeline()
        .xadd(key, `0-${entry.seq}`, ...fields)
        .pexpire(key, Math.max(1, ttlMs))
        .exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
    });
  }

  async *readLog(
    logKey: string,
    afterSeq: number,
    options: { signal: AbortSignal; follow: boolean },
  ): AsyncIterable<ClusterLogEntry> {
    const key = `${this.#prefix}log:${logKey}`;
    let last = `0-${afterSeq}`;
    const stored = await this.#run(() => this.#commands.xrange(key, `(${last}`, '+'));
    for (const [id, fields] of stored) {
      last = id;
      const entry = toEntry(id, fields);
      yield entry;
      if ('end' in entry) return;
    }
    if (!options.follow || options.signal.aborted) return;
    // No such log (a made-up or expired event id): nothing to wait for.
    if (stored.length === 0 && (await this.#run(() => this.#commands.exists(key))) === 0) return;
    // XREAD BLOCK holds its connection: each tail gets one, without the command timeout.
    const tail = new Redis(this.#url, {
      enableOfflineQueue: true,
      maxRetriesPerRequest: 0,
      lazyConnect: false,
    });
    tail.on('error', () => {});
    this.#tails.add(tail);
    const stop = () => tail.disconnect();
    options.signal.addEventListener('abort', stop, { once: true });
    let quietSince = Date.now();
    try {
      while (!options.signal.aborted && !this.#closed && Date.now() - quietSince < followSilenceMs) {
        this.operations += 1;
        let read: Array<[string, Array<[string, string[]]>]> | null;
        try {
          read = (await tail.xread('BLOCK', 1000, 'STREAMS', key, last)) as typeof read;
        } catch (error) {
          if (options.signal.aborted || this.#closed) return;
          throw this.#unavailable(error);
        }
        for (const [, entries] of read ?? []) {
          for (const [id, fields] of entries) {
            last = id;
            quietSince = Date.now();
            const entry = toEntry(id, fields);
            yield entry;
            if ('end' in entry) return;
          }
        }
      }
    } finally {
      options.signal.removeEventListener('abort', stop);
      this.#tails.delete(tail);
      tail.disconnect();
    }
  }

  async countCall(counterKey: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const key = `${this.#prefix}rate:${counterKey}`;
    this.operations += 1;
    const [count, ttl] = await this.#run(async () => {
      const results = await this.#commands.pipeline().incr(key).pttl(key).exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
      return [Number(results?.[0]?.[1]), Number(results?.[1]?.[1])];
    });
    // The window opens with its first call; a key that lost its expiry gets one again.
    if (count === 1 || ttl < 0) {
      await this.#run(() => this.#commands.pexpire(key, windowMs));
      return { count, resetInMs: windowMs };
    }
    return { count, resetInMs: ttl };
  }

  async changeSubscription(sessionKey: string, change: SubscriptionChange, ttlMs: number): Promise<void> {
    const key = `${this.#prefix}subs:${sessionKey}`;
    this.operations += 2;
    await this.#run(async () => {
      // One transaction: once the set shows the change, every replica has been told of it.
      const transaction = this.#commands.multi();
      if (change.subscribed) transaction.sadd(key, change.uri);
      else transaction.srem(key, change.uri);
      const results = await transaction
        .pexpire(key, Math.max(1, ttlMs))
        .publish(this.#eventChannel, JSON.stringify({ from: this.replicaId, subscription: change }))
        .exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
    });
  }

  async subscriptionsOf(sessionKey: string): Promise<string[]> {
    return this.#run(() => this.#commands.smembers(`${this.#prefix}subs:${sessionKey}`));
  }

  onRemoteSubscription(listener: (change: SubscriptionChange) => void): () => void {
    this.#subscriptionListeners.add(listener);
    return () => this.#subscriptionListeners.delete(listener);
  }

  publishEvent(event: ServerEvent): void {
    this.#run(() =>
      this.#commands.publish(this.#eventChannel, JSON.stringify({ from: this.replicaId, event })),
    ).then(
      () => {
        if (!this.#publishFailing) return;
        this.#publishFailing = false;
        this.#logger.info(`cluster: change events reach other replicas again (Redis at ${this.location})`);
      },
      () => {
        // Degrade, logged once: this replica's own streams still get the event (the bus delivered it).
        if (this.#publishFailing) return;
        this.#publishFailing = true;
        this.#logger.warn(
          `cluster: cannot publish change events to Redis at ${this.location}; other replicas miss them until it is back`,
        );
      },
    );
  }

  onRemoteEvent(listener: (event: ServerEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  async forwardResponse(replicaId: string, response: ForwardedResponse): Promise<void> {
    await this.#run(() =>
      this.#commands.publish(`${this.#prefix}replica:${replicaId}`, JSON.stringify(response)),
    );
  }

  onForwardedResponse(listener: (response: ForwardedResponse) => void): () => void {
    this.#responseListeners.add(listener);
    return () => this.#responseListeners.delete(listener);
  }

  forwardRequest(replicaId: string, payload: unknown, options: ForwardRequestOptions): Promise<unknown> {
    return this.#relay.forwardRequest(replicaId, payload, options);
  }

  onForwardedRequest(handler: ForwardedRequestHandler): () => void {
    return this.#relay.onForwardedRequest(handler);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#relay.close();
    for (const tail of this.#tails) tail.disconnect();
    this.#tails.clear();
    // QUIT only where connected: on a connection still trying, it would wait for Redis forever.
    await Promise.all(
      [this.#commands, this.#subscriber].map(async (connection) => {
        if (connection.status !== 'ready') {
          connection.disconnect();
          return;
        }
        await connection.quit().catch(() => connection.disconnect());
      }),
    );
  }

  /** One command (counted), its failure turned into CLUSTER_UNAVAILABLE. */
  async #run<T>(command: () => Promise<T>): Promise<T> {
    this.operations += 1;
    if (this.#commands.status !== 'ready') await this.#firstAttempt;
    try {
      return await command();
    } catch (error) {
      throw this.#unavailable(error);
    }
  }

  #unavailable(error: unknown): ServerError {
    const reason = error instanceof Error ? error.message : String(error);
    return new ServerError({
      code: ServerErrorCode.ClusterUnavailable,
      message: `Shared state unavailable: Redis at ${this.location} did not answer (${reason}); retry in a moment.`,
      context: { redis: this.location },
      cause: error,
    });
  }

  #received(channel: string, text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (channel === this.#eventChannel) {
      const message = parsed as { from?: unknown; event?: ServerEvent; subscription?: SubscriptionChange };
      // Our own events were delivered locally when published: exactly once per replica.
      if (message.from === this.replicaId) return;
      const subscription = message.subscription;
      if (typeof subscription?.sessionId === 'string' && typeof subscription.uri === 'string') {
        for (const listener of this.#subscriptionListeners) listener(subscription);
        return;
      }
      if (typeof message.event?.kind !== 'string') return;
      for (const listener of this.#eventListeners) listener(message.event);
      return;
    }
    if (channel === this.#replicaChannel) {
      if (isRelayMessage(parsed)) {
        this.#relay.receive(parsed);
        return;
      }
      const response = parsed as ForwardedResponse;
      if (typeof response?.sessionId !== 'string' || typeof response.message !== 'object') return;
      for (const listener of this.#responseListeners) listener(response);
    }
  }

  #noteDown(error: Error): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    this.#logger.warn(`cluster: Redis at ${this.location} unreachable (${error.message}); reconnecting`);
  }

  #noteUp(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#logger.info(`cluster: Redis at ${this.location} reachable again`);
  }
}

function toEntry(id: string, fields: string[]): ClusterLogEntry {
  const seq = Number(id.slice(id.indexOf('-') + 1));
  const values = new Map<string, string>();
  for (let index = 0; index + 1 < fields.length; index += 2)
    values.set(fields[index] as string, fields[index + 1] as string);
  if (values.has('e')) return { seq, end: true };
  return { seq, message: JSON.parse(values.get('m') ?? '{}') };
}

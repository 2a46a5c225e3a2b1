/**
 * The catalogue change feed: a change that one replica writes (a server's tools or record) reaches
 * the listeners of every replica. A write bumps the server's revision in `catalog_changes` and
 * sends a NOTIFY in the same transaction (delivered at commit); each store LISTENs on a dedicated
 * connection, reconnects with backoff when it drops, and then reads `catalog_changes` to announce
 * what it missed meanwhile. The same read every `changePollMs` covers a setup where notifications
 * never arrive (a pooler in transaction mode).
 */

import { createHash } from 'node:crypto';
import type { Logger } from '@switchboard/core';
import type { ListeningConnection, PostgresDatabase, PostgresNotification } from './postgres-connection.js';

/** What changed: the server whose record or tool list another write changed. */
export interface RegistryChange {
  /** Name of the server that changed. */
  server: string;
  /** `tools`: its tool list changed; `server`: its config, transport or server info; `trust`: its tools' trust decisions. */
  kind: 'server' | 'tools' | 'trust';
  /** True when this store instance made the change. */
  local: boolean;
}

/** Called with each change. */
export type RegistryChangeListener = (change: RegistryChange) => void;

/** What the feed needs. */
export interface ChangeFeedOptions {
  database(): Promise<PostgresDatabase>;
  /** Quoted schema name. */
  schema: string;
  channel: string;
  /** Id of this store instance (in each payload, to tell local changes). */
  origin: string;
  /** Period of the catch-up read; 0 reads only after a reconnect. */
  pollMs: number;
  logger: Logger;
  location: string;
}

/** The change feed of one store instance. */
export interface ChangeFeed {
  /** Adds a listener (starting the feed on the first); returns its unsubscribe function. */
  subscribe(listener: RegistryChangeListener): () => void;
  /** Resolves once a feed that was started listens (or failed to): at once when none was. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const firstRetryMs = 100;
const maxRetryMs = 5000;

/** Creates the feed; it connects when the first listener subscribes. */
export function createChangeFeed(options: ChangeFeedOptions): ChangeFeed {
  const listeners = new Set<RegistryChangeListener>();
  // Last revision known per server (announced, or read as the baseline): a catch-up read announces
  // only what is newer.
  const revisions = new Map<string, number>();
  // Last revision announced per server: a notification of a change a catch-up read already announced
  // is dropped. Apart from `revisions` so that a notification of a change the baseline read already
  // saw is still announced: the listener subscribed before it.
  const announced = new Map<string, number>();
  let connection: ListeningConnection | undefined;
  let starting: Promise<void> | undefined;
  let retryMs = firstRetryMs;
  let retryTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let closed = false;
  // Until the first read, every revision is a baseline, not a change.
  let baselined = false;

  const emit = (change: RegistryChange): void => {
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (error) {
        options.logger.warn(
          { store: options.location, error: error instanceof Error ? error.message : String(error) },
          'PostgreSQL registry store: a change listener threw; the others were still called.',
        );
      }
    }
  };

  const onNotification = (message: PostgresNotification): void => {
    if (message.channel !== options.channel || !message.payload) return;
    let payload: { server?: unknown; kind?: unknown; revision?: unknown; origin?: unknown };
    try {
      payload = JSON.parse(message.payload) as typeof payload;
    } catch {
      return;
    }
    if (typeof payload.server !== 'string') return;
    const revision = Number(payload.revision);
    if (!Number.isFinite(revision) || revision <= (announced.get(payload.server) ?? 0)) return;
    announced.set(payload.server, revision);
    revisions.set(payload.server, Math.max(revisions.get(payload.server) ?? 0, revision));
    emit({
      server: payload.server,
      kind: changeKind(payload.kind),
      local: payload.origin === options.origin,
    });
  };

  /** Reads every server's revision; announces those past what was seen (none on the first read). */
  const catchUp = async (): Promise<void> => {
    const announce = baselined;
    const database = await options.database();
    const result = await database.query(
      `SELECT server, revision, kind, origin FROM ${options.schema}.catalog_changes`,
    );
    for (const row of result.rows) {
      const server = row.server as string;
      const revision = Number(row.revision);
      const known = revisions.get(server);
      if (known !== undefined && known >= revision) continue;
      revisions.set(server, revision);
      if (!announce) continue;
      announced.set(server, Math.max(announced.get(server) ?? 0, revision));
      emit({
        server,
        kind: changeKind(row.kind),
        local: row.origin === options.origin,
      });
    }
    baselined = true;
  };

  const connect = async (): Promise<void> => {
    const database = await options.database();
    const opened = await database.listen();
    if (closed) {
      await opened.close();
      return;
    }
    opened.on('notification', onNotification);
    const lost = (reason: string) => {
      if (connection !== opened || closed) return;
      connection = undefined;
      opened.close().catch(() => undefined);
      options.logger.warn(
        { store: options.location, reason },
        `PostgreSQL registry store: the change feed connection was lost; reconnecting in ${retryMs} ms.`,
      );
      scheduleReconnect();
    };
    opened.on('error', (error) => lost(database.redact(error.message)));
    opened.on('end', () => lost('connection ended'));
    await opened.query(`LISTEN "${options.channel}"`);
    connection = opened;
    retryMs = firstRetryMs;
  };

  const scheduleReconnect = (): void => {
    if (closed || retryTimer) return;
    const delay = retryMs + Math.floor(Math.random() * retryMs * 0.2);
    retryMs = Math.min(maxRetryMs, retryMs * 2);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect()
        .then(() => catchUp())
        .catch((error: unknown) => {
          options.logger.warn(
            { store: options.location, error: error instanceof Error ? error.message : String(error) },
            'PostgreSQL registry store: the change feed could not reconnect; trying again.',
          );
          scheduleReconnect();
        });
    }, delay);
    retryTimer.unref?.();
  };

  const start = (): Promise<void> => {
    starting ??= (async () => {
      // Listening first, then the baseline: a change between the two is announced, not lost.
      if (options.pollMs > 0) {
        pollTimer = setInterval(() => {
          catchUp().catch((error: unknown) => {
            options.logger.warn(
              { store: options.location, error: error instanceof Error ? error.message : String(error) },
              'PostgreSQL registry store: the change feed could not read catalogue changes.',
            );
          });
        }, options.pollMs);
        pollTimer.unref?.();
      }
      await connect();
      await catchUp();
    })().catch((error: unknown) => {
      options.logger.warn(
        { store: options.location, error: error instanceof Error ? error.message : String(error) },
        'PostgreSQL registry store: the change feed could not start; retrying.',
      );
      scheduleReconnect();
      throw error;
    });
    return starting;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!closed) start().catch(() => undefined);
      return () => {
        listeners.delete(listener);
      };
    },
    settled: () => (starting ? starting.catch(() => undefined) : Promise.resolve()),
    async close() {
      closed = true;
      listeners.clear();
      if (retryTimer) clearTimeout(retryTimer);
      if (pollTimer) clearInterval(pollTimer);
      const open = connection;
      connection = undefined;
      await open?.close();
    },
  };
}

function changeKind(kind: unknown): RegistryChange['kind'] {
  return kind === 'server' || kind === 'trust' ? kind : 'tools';
}

/** The NOTIFY channel of a schema (an identifier of at most 63 bytes). */
export function changeChannel(schema: string): string {
  const channel = `switchboard_catalog_${schema}`;
  if (channel.length <= 63) return channel;
  return `switchboard_catalog_${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
}

/**
 * A trust store that keeps working when its own store cannot: the first failure of the store
 * (a corrupt or unwritable SQLite file, a database that is down) is logged once, and the
 * connection keeps its pins in memory from then on — as the registry store goes on without
 * persistence. Pins made in memory last for the connection only: a later process pins again.
 */
import { createMemoryTrustStore, type Logger, type ToolTrustStore } from '@switchboard/core';

/** `store`, falling back to memory (with one warning) at its first failure. */
export function createFallbackTrustStore(store: ToolTrustStore, logger: Logger): ToolTrustStore {
  let target = store;
  let fellBack = false;
  const fallBack = (error: unknown): ToolTrustStore => {
    if (!fellBack) {
      fellBack = true;
      target = createMemoryTrustStore();
      // The code only: a store's message may name a database URL with its password.
      const code = (error as { code?: unknown } | undefined)?.code;
      logger.warn(
        { code: typeof code === 'string' ? code : undefined },
        'tool trust: the pins cannot be read or written; this connection keeps them in memory (a changed tool is caught until it closes, not across runs)',
      );
    }
    return target;
  };
  const guarded =
    <A extends unknown[], R>(call: (to: ToolTrustStore, ...args: A) => R | Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (fellBack) return call(target, ...args);
      try {
        return await call(target, ...args);
      } catch (error) {
        return call(fallBack(error), ...args);
      }
    };
  return {
    specificationVersion: 'v1',
    listTrust: guarded((to, filter?: { server?: string }) => to.listTrust(filter)),
    putTrust: guarded((to, records: Parameters<ToolTrustStore['putTrust']>[0]) => to.putTrust(records)),
    removeTrust: guarded((to, keys: Parameters<ToolTrustStore['removeTrust']>[0]) => to.removeTrust(keys)),
    ...(store.onTrustChange === undefined
      ? {}
      : { onTrustChange: (listener) => store.onTrustChange?.(listener) ?? (() => {}) }),
  };
}

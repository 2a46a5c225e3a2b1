/**
 * The registry store of a one-shot command (`tools`, `call`, `select`): what the connection
 * records — servers, their tools, each call — is kept in memory and written when the command winds
 * down, while its servers exit. The file (and the SQLite driver) is then opened off the path to
 * the answer: before, the store was opened before the first server was even spawned, to register
 * the tools it remembered, which a command that waits for the live servers anyway has no use for.
 */
import {
  createMemoryTrustStore,
  type Logger,
  type RegistryStore,
  type StoredServer,
  type StoredTool,
  type StoredToolInput,
  type ToolCallRecord,
  type ToolTrustStore,
  type ToolUsage,
} from '@switchboard/core';

/** Options of {@link createDeferredRegistryStore}. */
export interface DeferredRegistryStoreOptions {
  /** The store's location, as the opened store will report it. */
  location: string;
  /** Opens the real store (at the first `flush` or `close`). */
  open(): Promise<RegistryStore>;
  /** Where a store that cannot be opened or written is reported (once: a warning, or debug when the driver is not installed). */
  logger: Logger;
}

/** A store that records now and writes later; `flush()` starts the writing. */
export interface DeferredRegistryStore extends RegistryStore {
  /** Writes what was recorded (opening the real store), and every later record as it comes. */
  flush(): Promise<void>;
}

type Write = (store: RegistryStore) => unknown;

/**
 * Creates the store. It reads nothing back (`listServers`, `listTools` and `listUsage` answer empty
 * lists): the connection then restores no tools before its servers are up, which is what the
 * command wants. Writes land in the order they were recorded; a store that fails is reported once
 * and the rest is dropped, as the connection does with a failing store.
 */
export function createDeferredRegistryStore(options: DeferredRegistryStoreOptions): DeferredRegistryStore {
  const queued: Write[] = [];
  let target: Promise<RegistryStore | undefined> | undefined;
  let writing: Promise<void> = Promise.resolve();
  // Set by `flush`: from then on, records go out as they come.
  let writeThrough = false;
  let failed = false;

  const report = (error: unknown) => {
    if (failed) return;
    failed = true;
    // Without the optional driver the store is simply off (said under --verbose); a store that is
    // there but broken (a driver built for another Node.js, a file it cannot write) is for the user to fix.
    const missing = (error as { code?: unknown } | undefined)?.code === 'STORE_DEPENDENCY_MISSING';
    const line = `registry store ${options.location} unavailable; this run's usage is not recorded: ${
      error instanceof Error ? error.message : String(error)
    }`;
    if (missing) options.logger.debug(line);
    else options.logger.warn(line);
  };

  const opened = (): Promise<RegistryStore | undefined> => {
    target ??= options.open().catch((error: unknown) => {
      report(error);
      return undefined;
    });
    return target;
  };

  // Trust decisions cannot wait for the command's end (a tool's verdict comes before its answer):
  // they open the real store at the first review. A store that cannot open leaves them in memory.
  let trustTarget: Promise<ToolTrustStore> | undefined;
  const trustOf = (): Promise<ToolTrustStore> => {
    trustTarget ??= opened().then((store) => store?.trustStore ?? createMemoryTrustStore());
    return trustTarget;
  };
  const trustStore: ToolTrustStore = {
    specificationVersion: 'v1',
    listTrust: async (filter) => (await trustOf()).listTrust(filter),
    putTrust: async (records) => (await trustOf()).putTrust(records),
    removeTrust: async (keys) => (await trustOf()).removeTrust(keys),
    onTrustChange(listener) {
      let stop: (() => void) | undefined;
      let stopped = false;
      void trustOf().then((store) => {
        if (!stopped) stop = store.onTrustChange?.(listener);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };

  // Opens the store (once) and writes what is queued, one write at a time, in order.
  const drain = (): Promise<void> => {
    void opened();
    writing = writing.then(async () => {
      const store = await target;
      while (store && !failed && queued.length > 0) {
        const write = queued.shift() as Write;
        try {
          await write(store);
        } catch (error) {
          report(error);
        }
      }
      queued.length = 0;
    });
    return writing;
  };

  const record = (write: Write): void => {
    if (failed) return;
    queued.push(write);
    if (writeThrough) void drain();
  };

  const flush = (): Promise<void> => {
    writeThrough = true;
    return queued.length > 0 ? drain() : writing;
  };

  return {
    specificationVersion: 'v1',
    location: options.location,
    recordServer: (server) => record((store) => store.recordServer(server)),
    recordTools: (server: string, tools: StoredToolInput[]) =>
      record((store) => store.recordTools(server, tools)),
    recordCall: (call: ToolCallRecord) => record((store) => store.recordCall(call)),
    listServers: (): StoredServer[] => [],
    listTools: (): StoredTool[] => [],
    listUsage: (): ToolUsage[] => [],
    trustStore,
    flush,
    async close() {
      if (queued.length > 0) await drain();
      await writing;
      // Never opened when nothing was recorded: no file is created for nothing.
      const store = await target;
      await store?.close();
    },
  };
}

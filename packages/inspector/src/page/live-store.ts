/**
 * The page's live state: what the process pushes on `/api/events` (servers, log, calls, pending
 * requests), kept in one place so that each view reads it instead of asking again. After each
 * (re)connect of the event stream the store reloads the lists, so a dropped stream loses nothing.
 */
import type { UiApiClient } from './api-client.js';
import type { UiCall, UiEvent, UiLogEntry, UiPendingRequest, UiProgress, UiServer } from './ui-types.js';

/** Log entries kept in the page; older ones are dropped (the process keeps its own ring buffer). */
export const maxLogEntries = 50_000;

export interface LiveState {
  /** The event stream: `open` while live updates arrive. */
  connection: 'connecting' | 'open' | 'closed';
  servers: UiServer[];
  serversLoaded: boolean;
  pending: UiPendingRequest[];
  /**
   * The protocol log, oldest first. One array that grows in place (a copy per message would cost
   * O(n) at 10,000 entries); `logVersion` changes whenever it does, for views to notice.
   */
  log: UiLogEntry[];
  logVersion: number;
  calls: Record<string, UiCall>;
  progress: Record<string, UiProgress>;
  /** Bumped per server on `tools-changed`, so a tools view knows to reload. */
  toolsVersion: Record<string, number>;
  /** Bumped on each `trust` event (and each reconnect), so the trust view knows to reload. */
  trustVersion: number;
  /** Short messages for the status line (an action that failed, a sign-in started). */
  notice?: { text: string; tone: 'info' | 'error' };
}

export interface LiveStore {
  getState(): LiveState;
  subscribe(listener: () => void): () => void;
  /** Opens the event stream and loads the lists; returns the stop function. */
  start(): () => void;
  setNotice(text: string, tone?: 'info' | 'error'): void;
  /** Records a call the page started (its `call-end` may arrive before the POST's answer). */
  trackCall(call: UiCall): void;
  /** Drops a pending request from the list once answered here (the `pending-done` event also does). */
  dropPending(id: string): void;
  /** Replaces one server's row after an action answered it. */
  putServer(server: UiServer): void;
  refreshServers(): Promise<void>;
}

export function createLiveStore(options: { api: UiApiClient }): LiveStore {
  const { api } = options;
  let state: LiveState = {
    connection: 'connecting',
    servers: [],
    serversLoaded: false,
    pending: [],
    log: [],
    logVersion: 0,
    calls: {},
    progress: {},
    toolsVersion: {},
    trustVersion: 0,
  };
  const listeners = new Set<() => void>();
  let lastSeq = -1;
  // Log batches arrive many a second under load; views re-render at most every 50 ms for them.
  let logFlush: ReturnType<typeof setTimeout> | undefined;

  function set(patch: Partial<LiveState>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  function appendLog(entries: UiLogEntry[]): void {
    let added = false;
    for (const entry of entries) {
      if (entry.seq <= lastSeq) continue;
      lastSeq = entry.seq;
      state.log.push(entry);
      added = true;
    }
    if (!added) return;
    if (state.log.length > maxLogEntries) state.log.splice(0, state.log.length - maxLogEntries);
    if (logFlush !== undefined) return;
    logFlush = setTimeout(() => {
      logFlush = undefined;
      set({ logVersion: state.logVersion + 1 });
    }, 50);
  }

  function upsertPending(request: UiPendingRequest): void {
    const others = state.pending.filter((pending) => pending.id !== request.id);
    set({ pending: [...others, request] });
  }

  function onEvent(event: UiEvent): void {
    switch (event.type) {
      case 'servers':
        set({ servers: event.servers, serversLoaded: true });
        return;
      case 'log':
        appendLog(event.entries);
        return;
      case 'call-progress':
        set({ progress: { ...state.progress, [event.callId]: event.progress } });
        return;
      case 'call-end':
        set({ calls: { ...state.calls, [event.call.callId]: event.call } });
        return;
      case 'pending':
        upsertPending(event.request);
        return;
      case 'pending-done':
        set({ pending: state.pending.filter((pending) => pending.id !== event.id) });
        return;
      case 'tools-changed':
        set({
          toolsVersion: {
            ...state.toolsVersion,
            [event.server]: (state.toolsVersion[event.server] ?? 0) + 1,
          },
        });
        return;
      case 'trust':
        set({ trustVersion: state.trustVersion + 1 });
        return;
    }
  }

  async function catchUp(): Promise<void> {
    // Each answer is applied as it comes: the log can hold 20,000 entries (~7 MB of JSON), and the
    // server list must not wait for it (it doubled the first load with a full log).
    const servers = api.servers().then(
      (list) => set({ servers: list, serversLoaded: true }),
      (error: unknown) =>
        set({ serversLoaded: true, notice: { text: String((error as Error)?.message), tone: 'error' } }),
    );
    const pending = api.pending().then(
      (list) => set({ pending: list }),
      () => {},
    );
    const log = api.log(lastSeq >= 0 ? lastSeq : undefined).then(appendLog, () => {});
    await Promise.all([servers, pending, log]);
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      const stop = api.events({
        onEvent,
        onOpen() {
          // What changed while the stream was down is not replayed: the trust view reloads.
          set({ connection: 'open', trustVersion: state.trustVersion + 1 });
          void catchUp();
        },
        onClose() {
          set({ connection: 'closed' });
        },
      });
      // The lists load at once too: the page is usable even before the stream opens.
      void catchUp();
      return stop;
    },
    setNotice(text, tone = 'info') {
      set({ notice: { text, tone } });
    },
    trackCall(call) {
      if (state.calls[call.callId]?.state !== undefined && isFinal(state.calls[call.callId]!)) return;
      set({ calls: { ...state.calls, [call.callId]: call } });
    },
    dropPending(id) {
      set({ pending: state.pending.filter((pending) => pending.id !== id) });
    },
    putServer(server) {
      const servers = state.servers.some((s) => s.name === server.name)
        ? state.servers.map((s) => (s.name === server.name ? server : s))
        : [...state.servers, server];
      set({ servers });
    },
    async refreshServers() {
      set({ servers: await api.servers(), serversLoaded: true });
    },
  };
}

/** A call that will not change any more. */
export function isFinal(call: UiCall): boolean {
  return (
    call.state === 'done' || call.state === 'failed' || call.state === 'cancelled' || call.state === 'refused'
  );
}

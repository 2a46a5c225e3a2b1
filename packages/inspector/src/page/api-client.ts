/**
 * The page's one way to the `switchboard ui` process: JSON over `/api/…` and the live events of
 * `/api/events`. The token comes from the printed URL's `?token=` once, when the page loads; it is
 * then kept in memory only and taken out of the address bar, so it does not stay in the history,
 * a screenshot or a Referer.
 */
import type {
  UiAddServerRequest,
  UiAppRequest,
  UiAppView,
  UiCall,
  UiCallRequest,
  UiCallStarted,
  UiErrorBody,
  UiEvent,
  UiEventType,
  UiLogEntry,
  UiMetrics,
  UiPendingList,
  UiPrompt,
  UiResources,
  UiSelection,
  UiSelectRequest,
  UiServer,
  UiServerCard,
  UiSignIn,
  UiToolDetail,
  UiToolSummary,
  UiTrustDecision,
  UiTrustDecisionRequest,
  UiTrustReview,
} from './ui-types.js';

/** An error answer of the process (or a failed request), with the process's code and field errors. */
export class UiRequestError extends Error {
  override readonly name = 'UiRequestError';
  constructor(
    readonly status: number,
    readonly body: UiErrorBody['error'],
  ) {
    super(body.message);
  }
}

/** Every route of the contract, as typed functions. */
export interface UiApiClient {
  servers(): Promise<UiServer[]>;
  addServer(request: UiAddServerRequest): Promise<UiServer>;
  removeServer(name: string): Promise<void>;
  serverAction(name: string, action: 'connect' | 'reconnect' | 'disconnect'): Promise<UiServer>;
  signIn(name: string): Promise<UiSignIn>;
  /** The server's Server Card, read from the server itself. */
  serverCard(name: string): Promise<UiServerCard>;
  tools(server: string): Promise<UiToolSummary[]>;
  tool(server: string, tool: string): Promise<UiToolDetail>;
  resources(server: string): Promise<UiResources>;
  readResource(server: string, uri: string): Promise<unknown>;
  prompts(server: string): Promise<UiPrompt[]>;
  getPrompt(server: string, name: string, args: Record<string, string>): Promise<unknown>;
  startCall(request: UiCallRequest): Promise<UiCallStarted>;
  call(callId: string): Promise<UiCall>;
  cancelCall(callId: string): Promise<void>;
  pending(): Promise<UiPendingList>;
  answerPending(id: string, answer: Record<string, unknown>): Promise<void>;
  log(since?: number): Promise<UiLogEntry[]>;
  select(request: UiSelectRequest): Promise<UiSelection>;
  metrics(): Promise<UiMetrics>;
  /** The MCP App of an ended call of an app tool. */
  openApp(callId: string): Promise<UiAppView>;
  /** Relays a request the app sent (tools/call, resources/read, a log message). */
  appRequest(viewId: string, request: UiAppRequest): Promise<unknown>;
  closeApp(viewId: string): Promise<void>;
  /** The tools tool trust holds back, with their diffs and findings. */
  trustReviews(): Promise<UiTrustReview[]>;
  /** Approves or rejects held-back definitions (the connection's trust API). */
  decideTrust(decision: 'approve' | 'reject', request: UiTrustDecisionRequest): Promise<UiTrustDecision>;
  /** Opens the live events; `onOpen` runs at each (re)connect, so the caller can catch up. */
  events(handlers: { onEvent(event: UiEvent): void; onOpen(): void; onClose(): void }): () => void;
}

const eventTypes: UiEventType[] = [
  'servers',
  'log',
  'call-progress',
  'call-end',
  'pending',
  'pending-done',
  'tools-changed',
  'trust',
];

/** Reads the token from the page's URL, then removes it from the address bar. */
export function takeTokenFromLocation(location: Location, history: History): string | undefined {
  const url = new URL(location.href);
  const token = url.searchParams.get('token') ?? undefined;
  if (token !== undefined) {
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
  return token;
}

/** A client for the process that served this page. */
export function createApiClient(options: { token: string | undefined; base?: string }): UiApiClient {
  const base = options.base ?? '';
  const { token } = options;

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token !== undefined) headers['x-switchboard-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (cause) {
      throw new UiRequestError(0, {
        code: 'UI_UNREACHABLE',
        message: `${method} ${path}: the switchboard ui process did not answer (${String(cause)}). Is it still running?`,
      });
    }
    const text = await response.text();
    const parsed = text === '' ? undefined : parseJson(text);
    if (!response.ok) {
      const error = (parsed as Partial<UiErrorBody> | undefined)?.error;
      throw new UiRequestError(
        response.status,
        error?.code !== undefined
          ? error
          : { code: `HTTP_${response.status}`, message: `${method} ${path} answered ${response.status}.` },
      );
    }
    return parsed as T;
  }

  const server = (name: string) => `/api/servers/${encodeURIComponent(name)}`;

  return {
    servers: () => request('GET', '/api/servers'),
    addServer: (body) => request('POST', '/api/servers', body),
    removeServer: (name) => request('DELETE', server(name)),
    serverAction: (name, action) => request('POST', `${server(name)}/${action}`),
    signIn: (name) => request('POST', `${server(name)}/sign-in`),
    serverCard: (name) => request('GET', `${server(name)}/card`),
    tools: (name) => request('GET', `${server(name)}/tools`),
    tool: (name, tool) => request('GET', `${server(name)}/tools/${encodeURIComponent(tool)}`),
    resources: (name) => request('GET', `${server(name)}/resources`),
    readResource: (name, uri) => request('POST', `${server(name)}/resources/read`, { uri }),
    prompts: (name) => request('GET', `${server(name)}/prompts`),
    getPrompt: (name, prompt, args) =>
      request('POST', `${server(name)}/prompts/get`, { name: prompt, arguments: args }),
    startCall: (body) => request('POST', '/api/calls', body),
    call: (callId) => request('GET', `/api/calls/${encodeURIComponent(callId)}`),
    cancelCall: (callId) => request('POST', `/api/calls/${encodeURIComponent(callId)}/cancel`),
    pending: () => request('GET', '/api/pending'),
    answerPending: (id, answer) => request('POST', `/api/pending/${encodeURIComponent(id)}`, answer),
    log: (since) => request('GET', since === undefined ? '/api/log' : `/api/log?since=${since}`),
    select: (body) => request('POST', '/api/select', body),
    metrics: () => request('GET', '/api/metrics'),
    openApp: (callId) => request('POST', '/api/apps', { callId }),
    appRequest: (viewId, body) => request('POST', `/api/apps/${encodeURIComponent(viewId)}/requests`, body),
    closeApp: (viewId) => request('DELETE', `/api/apps/${encodeURIComponent(viewId)}`),
    trustReviews: () => request('GET', '/api/trust'),
    decideTrust: (decision, body) => request('POST', `/api/trust/${decision}`, body),
    events(handlers) {
      // EventSource cannot send headers: it sends the cookie the first load set, and the token in
      // the query for a process that was reached some other way (same origin, loopback only).
      const url =
        token === undefined ? `${base}/api/events` : `${base}/api/events?token=${encodeURIComponent(token)}`;
      const source = new EventSource(url, { withCredentials: true });
      source.onopen = () => handlers.onOpen();
      source.onerror = () => handlers.onClose();
      for (const type of eventTypes) {
        source.addEventListener(type, (message) => {
          const data = parseJson((message as MessageEvent<string>).data);
          if (data === undefined || typeof data !== 'object') return;
          // The payload may or may not repeat its type; the SSE event name is the one that counts.
          handlers.onEvent({ ...(data as object), type } as UiEvent);
        });
      }
      return () => source.close();
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

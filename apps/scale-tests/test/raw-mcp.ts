/**
 * Raw MCP over HTTP for the scenarios that must steer requests: to a chosen replica, with a chosen
 * session id or token, reading an SSE stream event by event (ids included) and dropping it midway.
 * The official clients hide exactly these things, so the scenarios that need them use `fetch`.
 */

/** One server-sent event. */
export interface SseEvent {
  id?: string;
  /** The JSON-RPC message it carried (undefined for a priming event without data). */
  message?: {
    id?: unknown;
    method?: string;
    params?: Record<string, unknown>;
    result?: unknown;
    error?: unknown;
  };
}

/** Headers of a 2025 request, with the session and the bearer token when given. */
export function legacyHeaders(options: { session?: string; token?: string; lastEventId?: string } = {}) {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(options.session !== undefined ? { 'mcp-session-id': options.session } : {}),
    ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
    ...(options.lastEventId !== undefined ? { 'last-event-id': options.lastEventId } : {}),
  };
}

/** Opens a 2025 session on `url` (`initialize` + `notifications/initialized`); returns its id. */
export async function openSession(url: string, token?: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'scale-raw', version: '1.0.0' },
      },
    }),
  });
  const session = response.headers.get('mcp-session-id');
  await response.text();
  if (response.status !== 200 || session === null)
    throw new Error(`initialize on ${url}: HTTP ${response.status}`);
  const initialized = await fetch(url, {
    method: 'POST',
    headers: legacyHeaders({ session, ...(token !== undefined ? { token } : {}) }),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return session;
}

/** POSTs one message on a session; resolves with the status and the (SSE or JSON) messages. */
export async function sessionPost(
  url: string,
  session: string,
  message: Record<string, unknown>,
  token?: string,
): Promise<{ status: number; replica: string | null; events: SseEvent[]; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: legacyHeaders({ session, ...(token !== undefined ? { token } : {}) }),
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const body = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const events = type.includes('text/event-stream')
    ? parseSse(body)
    : body.trim().startsWith('{')
      ? [{ message: JSON.parse(body) }]
      : [];
  return { status: response.status, replica: response.headers.get('x-switchboard-replica'), events, body };
}

/** Parses a complete SSE text into events. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === '') continue;
    const event: SseEvent = {};
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('id:')) event.id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    const joined = data.join('\n');
    if (joined !== '') event.message = JSON.parse(joined);
    events.push(event);
  }
  return events;
}

/**
 * Reads an SSE response event by event: `until(event)` returning true stops the read and aborts the
 * connection (a client that lost its stream); otherwise it reads to the end.
 */
export async function readSse(
  response: Response,
  until: (event: SseEvent) => boolean,
  abort?: AbortController,
): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let boundary = buffer.search(/\r?\n\r?\n/);
    while (boundary >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      const [event] = parseSse(`${block}\n\n`);
      if (event) {
        events.push(event);
        if (until(event)) {
          abort?.abort();
          await reader.cancel().catch(() => {});
          return events;
        }
      }
      boundary = buffer.search(/\r?\n\r?\n/);
    }
  }
  return events;
}

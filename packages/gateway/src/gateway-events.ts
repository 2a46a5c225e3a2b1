/**
 * The upstreams' events (SEP-3415) through the gateway, as the event source of its server: event
 * types merged and namespaced like tools (core's `createToolName`, `mcp__<server>__<event>` by
 * default), polls and streams relayed to the upstream that owns the type. A cursor handed out here
 * wraps the upstream's own cursor with the upstream's name (`sbg1.<base64url JSON>`), so any
 * replica can resume it without shared state: the upstream's cursor is all that decides what comes
 * next. Webhook subscriptions are the gateway's own (`gateway-webhooks.ts`): it consumes the
 * upstream by polls and signs and posts to the subscriber itself, under the served names.
 */
import type { EventOccurrence, EventsClient, EventType } from '@switchboard/client';
import { createToolName, type Logger, type ToolNamingOptions } from '@switchboard/core';
import {
  type EventPollAnswer,
  type EventRequest,
  type EventSource,
  type EventStreamSink,
  type ListedEventType,
  ServerError,
  ServerErrorCode,
} from '@switchboard/server';
import { upstreamError } from './gateway-catalog.js';
import { type GatewayWebhookOptions, GatewayWebhooks } from './gateway-webhooks.js';

const eventsExtension = 'io.modelcontextprotocol/events';
const cursorPrefix = 'sbg1.';

/** What the gateway needs of one upstream for events (an `McpClient` fits). */
export interface EventsUpstreamClient {
  readonly capabilities?: unknown;
  readonly connected?: boolean;
  events?(): EventsClient;
}

/** Options of {@link GatewayEvents}. */
export interface GatewayEventsOptions {
  source: { readonly servers?: readonly string[]; client?(server: string): EventsUpstreamClient | undefined };
  logger: Logger;
  /** How upstream names become served names (the tools'). @default core's default */
  naming?: ToolNamingOptions;
  /** Deliver every relayed type by webhook too (`events/subscribe`), or not (`false`). @default in-process delivery */
  webhooks?: GatewayWebhookOptions | false;
}

interface Route {
  server: string;
  name: string;
}

/** The upstream cursor a gateway cursor wraps, checked to belong to `server`. */
function unwrapCursor(cursor: string | null, server: string, exposed: string): string | null {
  if (cursor === null) return null;
  let decoded: { s?: unknown; c?: unknown } | undefined;
  if (cursor.startsWith(cursorPrefix)) {
    try {
      decoded = JSON.parse(Buffer.from(cursor.slice(cursorPrefix.length), 'base64url').toString('utf8'));
    } catch {
      decoded = undefined;
    }
  }
  if (decoded?.s !== server || (decoded.c !== null && typeof decoded.c !== 'string')) {
    throw new ServerError({
      code: ServerErrorCode.EventCursorInvalid,
      message: `The cursor was not issued by this gateway for "${exposed}"; poll with cursor null to start from now.`,
      data: { name: exposed },
    });
  }
  return decoded.c as string | null;
}

function wrapCursor(cursor: string | null, server: string): string {
  return `${cursorPrefix}${Buffer.from(JSON.stringify({ s: server, c: cursor })).toString('base64url')}`;
}

/** The upstreams' events as the gateway server's event source. */
export class GatewayEvents implements EventSource {
  readonly specificationVersion = 'v1';
  /** The webhook subscriptions, unless turned off. */
  readonly webhooks?: GatewayWebhooks;
  readonly #options: GatewayEventsOptions;
  /** Served name → upstream and its name there (filled by listing). */
  readonly #routes = new Map<string, Route>();

  constructor(options: GatewayEventsOptions) {
    this.#options = options;
    if (options.webhooks !== false) {
      this.webhooks = new GatewayWebhooks(this, options.webhooks ?? {}, options.logger);
    }
  }

  /** Stops webhook deliveries on this replica (another takes them over). */
  async close(): Promise<void> {
    await this.webhooks?.close();
  }

  offersEvents(): boolean {
    return this.#upstreams().size > 0;
  }

  async listEventTypes(): Promise<ListedEventType[]> {
    const lists = await Promise.all(
      [...this.#upstreams()].map(async ([server, events]) => {
        try {
          return (await events.list()).map((type) => ({ server, type }));
        } catch (error) {
          this.#options.logger.warn(
            {
              server,
              operation: 'events/list',
              error: error instanceof Error ? error.message : String(error),
            },
            `gateway: events/list of upstream "${server}" failed; serving the others`,
          );
          return [];
        }
      }),
    );
    this.#routes.clear();
    const listed: ListedEventType[] = [];
    for (const { server, type } of lists.flat()) {
      // The upstream is consumed by poll or push: a type it offers by webhook alone is not served here.
      if (!type.delivery.some((mode) => mode !== 'webhook')) continue;
      const base = createToolName({ server, tool: type.name }, this.#options.naming);
      let name = base;
      for (let suffix = 2; this.#routes.has(name); suffix += 1) name = `${base}_${suffix}`;
      this.#routes.set(name, { server, name: type.name });
      listed.push(toListed(name, type, this.webhooks !== undefined));
    }
    return listed;
  }

  async pollEvents(request: EventRequest & { maxEvents: number }): Promise<EventPollAnswer> {
    const { route, events } = await this.#route(request.name);
    const cursor = unwrapCursor(request.cursor, route.server, request.name);
    let answer: Awaited<ReturnType<EventsClient['poll']>>;
    try {
      answer = await events.poll(route.name, request.arguments, { cursor, maxEvents: request.maxEvents });
    } catch (error) {
      throw upstreamError(route.server, 'events/poll', request.name, error);
    }
    return {
      events: answer.events.map((event) => this.#expose(event, request.name, route.server)),
      cursor: wrapCursor(answer.cursor, route.server),
      truncated: answer.truncated,
      hasMore: answer.hasMore,
      ...(answer.nextPollMs !== undefined ? { nextPollMs: answer.nextPollMs } : {}),
    };
  }

  async streamEvents(request: EventRequest, sink: EventStreamSink, signal: AbortSignal): Promise<void> {
    const { route, events } = await this.#route(request.name);
    const cursor = unwrapCursor(request.cursor, route.server, request.name);
    let finish: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const upstream = events.stream(route.name, request.arguments, {
      cursor,
      onActive: (info) =>
        sink.active({ cursor: wrapCursor(info.cursor, route.server), truncated: info.truncated }),
      onEvent: (event) => sink.event(this.#expose(event, request.name, route.server)),
      onEnd: () => finish(),
    });
    try {
      await upstream.active;
    } catch (error) {
      throw upstreamError(route.server, 'events/stream', request.name, error);
    }
    const stop = () => finish();
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) stop();
    await ended;
    signal.removeEventListener('abort', stop);
    await upstream.close().catch(() => {});
  }

  #expose(event: EventOccurrence, name: string, server: string): EventOccurrence {
    return { ...event, name, cursor: wrapCursor(event.cursor, server) };
  }

  /** The upstream serving `name` (listing again when it is not known yet). */
  async #route(name: string): Promise<{ route: Route; events: EventsClient }> {
    if (!this.#routes.has(name)) await this.listEventTypes();
    const route = this.#routes.get(name);
    const events = route === undefined ? undefined : this.#upstreams().get(route.server);
    if (route === undefined || events === undefined) {
      throw new ServerError({
        code: ServerErrorCode.EventTypeNotFound,
        message: `No event type "${name}" is offered by a connected upstream; call events/list for the offered types.`,
        data: { name },
      });
    }
    return { route, events };
  }

  /** The connected upstreams that declare the Events extension, with their events clients. */
  #upstreams(): Map<string, EventsClient> {
    const result = new Map<string, EventsClient>();
    const { source } = this.#options;
    for (const server of source.servers ?? []) {
      let client: EventsUpstreamClient | undefined;
      try {
        client = source.client?.(server);
      } catch {
        // A server removed between reading `servers` and asking for its client.
        continue;
      }
      const extensions = (client?.capabilities as { extensions?: Record<string, unknown> } | undefined)
        ?.extensions;
      if (
        client?.events === undefined ||
        client.connected === false ||
        extensions?.[eventsExtension] === undefined
      ) {
        continue;
      }
      result.set(server, client.events());
    }
    return result;
  }
}

/** An upstream's type as listed here: its served name, poll and push as the upstream offers them, and the gateway's own webhooks. */
function toListed(name: string, type: EventType, webhooks: boolean): ListedEventType {
  const relayed = type.delivery.filter((mode) => mode !== 'webhook');
  return {
    name,
    ...(type.description !== undefined ? { description: type.description } : {}),
    delivery: webhooks ? [...relayed, 'webhook'] : relayed,
    inputSchema: type.inputSchema,
    ...(type.payloadSchema !== undefined ? { payloadSchema: type.payloadSchema } : {}),
  };
}

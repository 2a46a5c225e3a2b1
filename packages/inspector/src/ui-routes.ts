/**
 * The HTTP API of `switchboard ui` (`ui-api.ts` has every request and answer): a table of
 * method + path pattern → handler over the session. Handlers check the body's shape here, so the
 * session takes typed values; a body that does not fit is a 400 naming the field.
 */
import type {
  UiAddServerRequest,
  UiCallRequest,
  UiCallStarted,
  UiSelectRequest,
  UiTrustDecisionRequest,
} from './ui-api.js';
import { UiError, UiErrorCode } from './ui-error.js';
import type { UiSession } from './ui-session.js';

/** What a handler is given. */
export interface UiRouteRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (undefined when there was none). */
  body: unknown;
}

/** A handler's answer: a body (status 200), or a status and a body. */
export type UiRouteAnswer = { status: number; body: unknown } | { body: unknown; status?: undefined };

type Handler = (session: UiSession, request: UiRouteRequest) => Promise<UiRouteAnswer> | UiRouteAnswer;

interface UiRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** `/api/servers/:name/tools/:tool`: `:x` matches one path segment. */
  pattern: string;
  handle: Handler;
}

const ok = (body: unknown): UiRouteAnswer => ({ body });

/** Every route of the API but `GET /api/events` (the live stream, served by the server itself). */
export const uiRoutes: readonly UiRoute[] = [
  { method: 'GET', pattern: '/api/servers', handle: (session) => ok(session.servers()) },
  {
    method: 'POST',
    pattern: '/api/servers',
    handle: async (session, { body }) => ({
      status: 201,
      body: await session.addServer(addServerRequest(body)),
    }),
  },
  {
    method: 'GET',
    pattern: '/api/servers/:name',
    handle: (session, { params }) => ok(session.server(params.name as string)),
  },
  {
    method: 'DELETE',
    pattern: '/api/servers/:name',
    handle: async (session, { params }) => ok(await session.removeServer(params.name as string)),
  },
  {
    method: 'POST',
    pattern: '/api/servers/:name/connect',
    handle: async (session, { params }) => ok(await session.connectServer(params.name as string)),
  },
  {
    method: 'POST',
    pattern: '/api/servers/:name/reconnect',
    handle: async (session, { params }) => ok(await session.reconnectServer(params.name as string)),
  },
  {
    method: 'POST',
    pattern: '/api/servers/:name/disconnect',
    handle: async (session, { params }) => ok(await session.disconnectServer(params.name as string)),
  },
  {
    method: 'POST',
    pattern: '/api/servers/:name/sign-in',
    handle: async (session, { params }) => ok(await session.signIn(params.name as string)),
  },
  {
    method: 'GET',
    pattern: '/api/servers/:name/card',
    handle: async (session, { params }) => ok(await session.serverCard(params.name as string)),
  },
  {
    method: 'GET',
    pattern: '/api/servers/:name/tools',
    handle: (session, { params }) => ok(session.tools(params.name as string)),
  },
  {
    method: 'GET',
    pattern: '/api/servers/:name/tools/:tool',
    handle: (session, { params }) => ok(session.tool(params.name as string, params.tool as string)),
  },
  {
    method: 'GET',
    pattern: '/api/servers/:name/resources',
    handle: async (session, { params }) => ok(await session.resources(params.name as string)),
  },
  {
    method: 'POST',
    pattern: '/api/servers/:name/resources/read',
    handle: async (session, { params, body }) =>
      ok(await session.readResource(params.name as string, stringField(objectBody(body), 'uri'))),
  },
  {
    method: 'GET',
    pattern: '/api/servers/:name/prompts',
    handle: async (session, { params }) => ok(await session.prompts(params.name as string)),
  },
  {
    method: 'POST',
    pattern: '/api/servers/:name/prompts/get',
    handle: async (session, { params, body }) => {
      const request = objectBody(body);
      return ok(
        await session.getPrompt(
          params.name as string,
          stringField(request, 'name'),
          stringRecord(request.arguments ?? {}, 'arguments'),
        ),
      );
    },
  },
  {
    method: 'POST',
    pattern: '/api/calls',
    handle: (session, { body }) => {
      const call = session.startCall(callRequest(body));
      const started: UiCallStarted = { callId: call.callId };
      return { status: 202, body: started };
    },
  },
  { method: 'GET', pattern: '/api/calls', handle: (session) => ok(session.calls.list()) },
  {
    method: 'GET',
    pattern: '/api/calls/:id',
    handle: (session, { params }) => ok(session.calls.get(params.id as string)),
  },
  {
    method: 'POST',
    pattern: '/api/calls/:id/cancel',
    handle: (session, { params }) => ok(session.calls.cancel(params.id as string)),
  },
  {
    method: 'POST',
    pattern: '/api/apps',
    handle: async (session, { body }) => ok(await session.openApp(stringField(objectBody(body), 'callId'))),
  },
  {
    method: 'POST',
    pattern: '/api/apps/:id/requests',
    handle: async (session, { params, body }) => {
      const request = objectBody(body);
      return ok(
        (await session.appRequest(params.id as string, {
          method: stringField(request, 'method'),
          ...(request.params === undefined ? {} : { params: request.params }),
        })) ?? {},
      );
    },
  },
  {
    method: 'DELETE',
    pattern: '/api/apps/:id',
    handle: (session, { params }) => {
      session.closeApp(params.id as string);
      return ok({ closed: params.id });
    },
  },
  { method: 'GET', pattern: '/api/pending', handle: (session) => ok(session.pending.list()) },
  {
    method: 'POST',
    pattern: '/api/pending/:id',
    handle: (session, { params, body }) => {
      session.pending.answer(params.id as string, body);
      return ok({ answered: params.id });
    },
  },
  {
    method: 'GET',
    pattern: '/api/log',
    handle: (session, { query }) => {
      const server = query.get('server');
      return ok(
        session.log({
          ...(server ? { server } : {}),
          ...numberParam(query, 'since'),
          ...numberParam(query, 'limit'),
        }),
      );
    },
  },
  {
    method: 'POST',
    pattern: '/api/select',
    handle: async (session, { body }) => ok(await session.select(selectRequest(body))),
  },
  { method: 'GET', pattern: '/api/metrics', handle: (session) => ok(session.metrics()) },
  { method: 'GET', pattern: '/api/trust', handle: async (session) => ok(await session.trust.reviews()) },
  {
    method: 'POST',
    pattern: '/api/trust/approve',
    handle: async (session, { body }) => ok(await session.trust.approve(trustDecisionRequest(body))),
  },
  {
    method: 'POST',
    pattern: '/api/trust/reject',
    handle: async (session, { body }) => ok(await session.trust.reject(trustDecisionRequest(body))),
  },
];

/** The route of `method` and `pathname`, with its path parameters; `allowed` lists the methods of a path known under others. */
export function matchUiRoute(
  method: string,
  pathname: string,
): { route: UiRoute; params: Record<string, string> } | { allowed: string[] } | undefined {
  const segments = pathname.split('/');
  const allowed: string[] = [];
  for (const route of uiRoutes) {
    const params = matchPattern(route.pattern, segments);
    if (params === undefined) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { allowed } : undefined;
}

function matchPattern(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.split('/');
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index] as string;
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    } else if (part !== segment) return undefined;
  }
  return params;
}

// ---------------------------------------------------------------- body shapes

function badBody(message: string): UiError {
  return new UiError({ code: UiErrorCode.BadRequest, message });
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badBody('The request needs a JSON object body.');
  }
  return body as Record<string, unknown>;
}

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw badBody(`"${name}" must be a non-empty string.`);
  return value;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badBody(`"${name}" must be a string.`);
  return value;
}

function stringRecord(value: unknown, name: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badBody(`"${name}" must be an object of strings.`);
  }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw badBody(`"${name}.${key}" must be a string.`);
  }
  return value as Record<string, string>;
}

function stringArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw badBody(`"${name}" must be an array of strings.`);
  }
  return value as string[];
}

function numberParam(query: URLSearchParams, name: string): Record<string, number> {
  const raw = query.get(name);
  if (raw === null || raw === '') return {};
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw badBody(`?${name}= must be a whole number ≥ 0, not "${raw}".`);
  return { [name]: value };
}

function addServerRequest(body: unknown): UiAddServerRequest {
  const request = objectBody(body);
  const url = optionalString(request, 'url');
  const command = optionalString(request, 'command');
  return {
    name: stringField(request, 'name'),
    ...(url === undefined ? {} : { url }),
    ...(request.headers === undefined ? {} : { headers: stringRecord(request.headers, 'headers') }),
    ...(command === undefined ? {} : { command }),
    ...(request.args === undefined ? {} : { args: stringArray(request.args, 'args') }),
    ...(request.env === undefined ? {} : { env: stringRecord(request.env, 'env') }),
  };
}

function callRequest(body: unknown): UiCallRequest {
  const request = objectBody(body);
  const args = request.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw badBody('"arguments" must be a JSON object (the tool\'s named arguments).');
  }
  return {
    server: stringField(request, 'server'),
    tool: stringField(request, 'tool'),
    arguments: args as Record<string, unknown>,
  };
}

function selectRequest(body: unknown): UiSelectRequest {
  const request = objectBody(body);
  const query = request.query;
  if (typeof query !== 'string' || query.trim() === '') throw badBody('"query" must be a non-empty string.');
  const k = request.k;
  if (k !== undefined && !(Number.isInteger(k) && (k as number) >= 1))
    throw badBody('"k" must be a whole number ≥ 1.');
  const minScore = request.minScore;
  if (minScore !== undefined && (typeof minScore !== 'number' || !Number.isFinite(minScore))) {
    throw badBody('"minScore" must be a number.');
  }
  const signals = request.signals;
  if (signals !== undefined && signals !== 'hybrid' && signals !== 'dense' && signals !== 'lexical') {
    throw badBody('"signals" must be "hybrid", "dense" or "lexical".');
  }
  const dataset = optionalString(request, 'dataset');
  return {
    query,
    ...(k === undefined ? {} : { k: k as number }),
    ...(minScore === undefined ? {} : { minScore: minScore as number }),
    ...(signals === undefined ? {} : { signals }),
    ...(request.alwaysInclude === undefined
      ? {}
      : { alwaysInclude: stringArray(request.alwaysInclude, 'alwaysInclude') }),
    ...(dataset === undefined || dataset === '' ? {} : { dataset }),
  };
}

function trustDecisionRequest(body: unknown): UiTrustDecisionRequest {
  const request = objectBody(body);
  const tool = optionalString(request, 'tool');
  const digest = optionalString(request, 'digest');
  return {
    server: stringField(request, 'server'),
    ...(tool === undefined || tool === '' ? {} : { tool }),
    ...(digest === undefined || digest === '' ? {} : { digest }),
  };
}

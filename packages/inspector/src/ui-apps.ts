/**
 * The MCP Apps the page renders: a view per ended call of an app tool — the app's HTML read from
 * the tool's server (the client's `openAppView`), its CSP and permissions worked out here, served
 * by the sandbox origin — and the requests the app sends back through the page. Those go the way
 * the page's own go: a `tools/call` becomes a call of the page (`ui-calls.ts`: the same validation
 * and the same approval prompt, marked as the app's), on the app's own server and only for tools
 * its visibility lets apps call (the client's `resolveAppToolCall`); a `resources/read` reads the
 * app's server; a log message is kept. Each request and its answer enter the protocol log on the
 * `app` channel; whatever reaches the page or the app is redacted.
 */
import { randomBytes } from 'node:crypto';
import {
  type AppToolCall,
  ClientError,
  ClientErrorCode,
  type McpConnection,
  openAppView,
  type ProtocolMessageEvent,
  resolveAppToolCall,
} from '@switchboard/client';
import type { AppResourceMeta } from '@switchboard/core';
import { appContentSecurityPolicy } from './app-content-security-policy.js';
import type { ProtocolLog } from './protocol-log.js';
import type { SandboxDocument } from './sandbox-server.js';
import type { UiAppRequest, UiAppView, UiCall } from './ui-api.js';
import type { UiCalls } from './ui-calls.js';
import { toUiErrorAnswer, UiError, UiErrorCode } from './ui-error.js';
import type { UiRedaction } from './ui-redaction.js';

/** Where the views are served: known once the sandbox and the page's server listen. */
export interface AppSandbox {
  /** The sandbox origin (`http://127.0.0.1:PORT`). */
  origin: string;
  /** The inspector page's origin. */
  hostOrigin: string;
  /** Loopback ports no app may reach (the page's and the sandbox's). */
  ports: number[];
}

/** Options of {@link createUiApps}. */
export interface UiAppsOptions {
  connection(): Pick<McpConnection, 'registry' | 'client' | 'callTool'>;
  calls: UiCalls;
  log: ProtocolLog;
  redaction: UiRedaction;
  /** Views kept open at once; the oldest is closed beyond. @default 16 */
  maxViews?: number;
}

/** The app views of a session. */
export interface UiApps {
  /** Tells the views where they are served (the page's server does, once both listen). */
  bindSandbox(sandbox: AppSandbox): void;
  /** Opens the app of an ended call: reads its resource and makes its sandbox documents. */
  open(call: UiCall): Promise<UiAppView>;
  /** Answers a request the app of `viewId` sent. */
  request(viewId: string, request: UiAppRequest): Promise<unknown>;
  /** Closes a view: its sandbox documents are gone. */
  close(viewId: string): void;
  /** What the sandbox serves for a view. */
  document(viewId: string): SandboxDocument | undefined;
  closeAll(): void;
}

interface View {
  server: string;
  resourceUri: string;
  document: SandboxDocument;
  /** JSON-RPC ids of the app's requests, as the log shows them. */
  nextId: number;
}

const permissionFeatures: Record<string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The frame's `allow` and what it grants, from the resource's `permissions`. */
function permissionsOf(meta: AppResourceMeta): { allow: string; granted: Record<string, object> } {
  const granted: Record<string, object> = {};
  const features: string[] = [];
  for (const [key, feature] of Object.entries(permissionFeatures)) {
    if ((meta.permissions as Record<string, unknown> | undefined)?.[key] === undefined) continue;
    granted[key] = {};
    features.push(`${feature} *`);
  }
  return { allow: features.join('; '), granted };
}

function unknownView(viewId: string): UiError {
  return new UiError({
    code: UiErrorCode.UnknownApp,
    message: `No app view "${viewId}": it was closed (a newer view replaced it, or the page closed it). Open the call's app again.`,
    context: { viewId },
  });
}

/** Creates the app views of a session. */
export function createUiApps(options: UiAppsOptions): UiApps {
  const maxViews = options.maxViews ?? 16;
  const views = new Map<string, View>();
  let sandbox: AppSandbox | undefined;

  const viewOf = (viewId: string): View => {
    const view = views.get(viewId);
    if (view === undefined) throw unknownView(viewId);
    return view;
  };

  /** One message between the app of `view` and this process, on the `app` channel of its server's log. */
  const appendToLog = (view: View, direction: 'in' | 'out', message: Record<string, unknown>) => {
    // The app speaks JSON-RPC through the page; the log takes it as the wire messages it keeps.
    const wire = { jsonrpc: '2.0', ...message } as unknown as ProtocolMessageEvent['message'];
    options.log.append(view.server, { direction, message: wire }, 'app');
  };

  /** Logs the app's request and its answer on the `app` channel of its server's log. */
  const logged = async (view: View, request: UiAppRequest, answer: () => Promise<unknown>) => {
    const notification = request.method.startsWith('notifications/');
    const id = notification ? undefined : ++view.nextId;
    appendToLog(view, 'in', {
      ...(id === undefined ? {} : { id }),
      method: request.method,
      ...(request.params === undefined ? {} : { params: request.params }),
    });
    try {
      const result = await answer();
      if (id !== undefined) appendToLog(view, 'out', { id, result });
      return result;
    } catch (error) {
      const { body } = toUiErrorAnswer(error, options.redaction.text);
      if (id !== undefined) appendToLog(view, 'out', { id, error: body.error });
      throw error;
    }
  };

  const callTool = async (view: View, viewId: string, params: Record<string, unknown>): Promise<unknown> => {
    const connection = options.connection();
    const tool = resolveAppToolCall(connection, view.server, params.name);
    const args = params.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new UiError({
        code: UiErrorCode.BadRequest,
        message: `The app's tools/call of "${tool.originalName}": "arguments" must be an object.`,
      });
    }
    // A call of the page in every way (validation, the approval prompt), marked as the app's.
    const started = options.calls.start(tool, args as Record<string, unknown>, {
      viewId,
      resourceUri: view.resourceUri,
    });
    const ended = await options.calls.ended(started.callId);
    if (ended.state === 'done') return ended.result;
    const reason = ended.error ?? {
      code: 'CANCELLED',
      message: `The call of "${tool.originalName}" was cancelled.`,
    };
    throw new ClientError({
      code: ClientErrorCode.AppRequestRefused,
      message: `${reason.code}: ${reason.message}`,
      context: { server: view.server, tool: tool.originalName, reason: reason.code },
    });
  };

  const evict = () => {
    while (views.size > maxViews) views.delete(views.keys().next().value as string);
  };

  return {
    bindSandbox(bound) {
      sandbox = bound;
    },
    async open(call) {
      if (sandbox === undefined) {
        throw new UiError({
          code: UiErrorCode.Internal,
          message: 'The app sandbox is not listening yet.',
        });
      }
      if (call.state !== 'done' || call.result === undefined) {
        throw new UiError({
          code: UiErrorCode.AppUnavailable,
          message: `Call "${call.callId}" has no result to show in its app (it is ${call.state}).`,
          context: { callId: call.callId, state: call.state },
        });
      }
      const connection = options.connection();
      const tool = connection.registry.getByOriginal(call.server, call.tool);
      if (tool === undefined) {
        throw new UiError({
          code: UiErrorCode.UnknownTool,
          message: `Tool "${call.tool}" of server "${call.server}" is gone (the server changed its tools); call it again.`,
          context: { server: call.server, tool: call.tool },
        });
      }
      const opened = await openAppView(connection, {
        name: tool.name,
        arguments: call.arguments,
        // An ended call's result as the server sent it (redacted): a CallToolResult.
        result: call.result as NonNullable<AppToolCall['result']>,
      });
      const { header, granted } = appContentSecurityPolicy(opened.resource.meta.csp, {
        frameAncestors: [sandbox.origin, sandbox.hostOrigin],
        forbiddenPorts: sandbox.ports,
      });
      const permissions = permissionsOf(opened.resource.meta);
      const viewId = randomBytes(16).toString('base64url');
      views.set(viewId, {
        server: tool.server,
        resourceUri: opened.resource.uri,
        document: { html: opened.resource.html, csp: header, allow: permissions.allow },
        nextId: 0,
      });
      evict();
      const meta = (tool.meta as { _meta?: Record<string, unknown> } | undefined)?._meta;
      return {
        viewId,
        sandboxUrl: `${sandbox.origin}/views/${viewId}/`,
        sandboxOrigin: sandbox.origin,
        server: tool.server,
        resourceUri: opened.resource.uri,
        tool: {
          name: tool.originalName,
          ...(tool.title === undefined ? {} : { title: tool.title }),
          ...(tool.description === '' ? {} : { description: tool.description }),
          inputSchema: tool.inputSchema,
          ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
          ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
          ...(meta === undefined ? {} : { _meta: meta }),
        },
        toolInput: { arguments: call.arguments },
        toolResult: call.result,
        requested: opened.resource.meta as UiAppView['requested'],
        granted: { csp: granted, permissions: permissions.granted, allow: permissions.allow },
      };
    },
    async request(viewId, request) {
      const view = viewOf(viewId);
      const params =
        typeof request.params === 'object' && request.params !== null && !Array.isArray(request.params)
          ? (request.params as Record<string, unknown>)
          : {};
      return logged(view, request, async () => {
        switch (request.method) {
          case 'tools/call':
            return callTool(view, viewId, params);
          case 'resources/read': {
            const uri = params.uri;
            const client = options.connection().client(view.server);
            if (typeof uri !== 'string' || uri === '' || client === undefined) {
              throw new UiError({
                code: client === undefined ? UiErrorCode.ServerNotConnected : UiErrorCode.BadRequest,
                message:
                  client === undefined
                    ? `The app's server "${view.server}" is not connected.`
                    : 'The app sent resources/read without a uri.',
                context: { server: view.server },
              });
            }
            return options.redaction.value(await client.readResource(uri));
          }
          case 'notifications/message':
          case 'ping':
            return {};
          default:
            throw new ClientError({
              code: ClientErrorCode.AppRequestRefused,
              message: `The inspector answers an app's tools/call, resources/read and ping; not ${request.method}.`,
              context: { server: view.server, method: request.method },
            });
        }
      });
    },
    close(viewId) {
      views.delete(viewId);
    },
    document: (viewId) => views.get(viewId)?.document,
    closeAll() {
      views.clear();
    },
  };
}

/**
 * The Node side of rendering an MCP App in your own web page. Given a connection and a tool call,
 * `openAppView` reads the tool's `ui://` resource from the tool's server and hands back what the
 * page's host bridge (`AppBridge` of `@modelcontextprotocol/ext-apps/app-bridge`) needs: the HTML
 * and its `_meta.ui` (CSP, permissions, domain, border), the tool input and result to send the app,
 * and `handleAppRequest`, which answers the requests the app sends back through the page —
 * `tools/call` and `resources/read` — on the app's own server, through the connection's
 * validation, approval policy (its `approve` callback for `ask`) and supervision:
 *
 * ```ts
 * const view = await openAppView(connection, { name: 'mcp__monitor__get-system-info', arguments: {} });
 * // send view.resource, view.toolInput and view.toolResult to the page; then, per app request:
 * const answer = await view.handleAppRequest({ method: 'tools/call', params: { name: 'poll-system-stats' } });
 * ```
 *
 * What the spec asks of hosts, kept here so a page cannot forget it: an app calls tools of its own
 * server only, by their names there, and only those whose `visibility` includes `app`.
 */
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client';
import {
  type AppResourceMeta,
  isAppCallable,
  isAppResourceUri,
  mcpAppMimeType,
  type RegisteredTool,
  readAppResourceMeta,
} from '@switchboard/core';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { McpConnection } from './connect-mcp.js';

/** A tool call whose app to open: the tool's public name, its arguments, and its result when it already ran. */
export interface AppToolCall {
  /** The tool's public (namespaced) name on the connection. */
  name: string;
  arguments?: Record<string, unknown>;
  /** The call's `CallToolResult`, when the tool already ran (a model's call); absent: `openAppView` calls it. */
  result?: CallToolResult;
}

/** An app's HTML resource, as read from its server. */
export interface AppResource {
  /** The `ui://` URI on the tool's server. */
  uri: string;
  /** The HTML document to load into the sandbox. */
  html: string;
  /** Rendering metadata: the read contents' `_meta.ui`, else the resource listing's. */
  meta: AppResourceMeta;
}

/** A request an app sent its host (JSON-RPC method and params). */
export interface AppRequest {
  method: string;
  params?: unknown;
}

/** An app to render: what to load, what to send it, and how to answer it. */
export interface AppView {
  /** The tool that was called, as registered (its server, original name, schemas, `app`). */
  tool: RegisteredTool;
  resource: AppResource;
  /** The params of `ui/notifications/tool-input`. */
  toolInput: { arguments: Record<string, unknown> };
  /** The params of `ui/notifications/tool-result`. */
  toolResult: CallToolResult;
  /**
   * Answers a request the app sent (`tools/call`, `resources/read`, `ping`) on the app's server;
   * rejects with a `ClientError` (`APP_REQUEST_REFUSED`) for another server's tool, a tool kept
   * from apps, or another method, and with the call's own error when the call fails.
   */
  handleAppRequest(request: AppRequest, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** Options of {@link openAppView}. */
export interface OpenAppViewOptions {
  /** Aborts the call, when `openAppView` makes it. */
  signal?: AbortSignal;
}

function refused(message: string, context: Record<string, unknown>): ClientError {
  return new ClientError({ code: ClientErrorCode.AppRequestRefused, message, context });
}

/**
 * The tool an app of `server` calls by `name` (its name on that server), or a refusal that says why:
 * the spec lets an app call its own server's tools whose `visibility` includes `app`, nothing else.
 */
export function resolveAppToolCall(
  connection: Pick<McpConnection, 'registry'>,
  server: string,
  name: unknown,
): RegisteredTool {
  if (typeof name !== 'string' || name === '') {
    throw refused(`The app of server "${server}" sent tools/call without a tool name.`, { server });
  }
  const tool = connection.registry.getByOriginal(server, name);
  if (tool === undefined) {
    throw refused(
      `The app of server "${server}" called "${name}", which that server does not offer; an app calls its own server's tools by their names there.`,
      { server, tool: name },
    );
  }
  if (!isAppCallable(tool)) {
    throw refused(
      `The app of server "${server}" called "${name}", whose visibility keeps it from apps (["model"]).`,
      { server, tool: name },
    );
  }
  return tool;
}

function objectParams(params: unknown): Record<string, unknown> {
  return typeof params === 'object' && params !== null && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : {};
}

async function readAppResource(
  connection: Pick<McpConnection, 'client'>,
  tool: RegisteredTool,
  uri: string,
): Promise<AppResource> {
  const client = connection.client(tool.server);
  if (client === undefined) {
    throw new ClientError({
      code: ClientErrorCode.ConnectionClosed,
      message: `Reading the app of tool "${tool.name}": MCP server "${tool.server}" is not connected; try again once it is back.`,
      context: { server: tool.server, tool: tool.name, uri },
    });
  }
  const result = await client.readResource(uri);
  const content = result.contents.find((item) => item.uri === uri) ?? result.contents[0];
  const html =
    content === undefined
      ? undefined
      : 'text' in content && typeof content.text === 'string'
        ? content.text
        : 'blob' in content && typeof content.blob === 'string'
          ? Buffer.from(content.blob, 'base64').toString('utf8')
          : undefined;
  if (content === undefined || html === undefined || content.mimeType !== mcpAppMimeType) {
    throw new ClientError({
      code: ClientErrorCode.AppNotFound,
      message: `The app of tool "${tool.name}" (${uri} on MCP server "${tool.server}") is not an HTML app: expected one content of type ${mcpAppMimeType}, got ${content === undefined ? 'none' : String(content.mimeType ?? 'no type')}.`,
      context: { server: tool.server, tool: tool.name, uri },
    });
  }
  let ui = (content._meta as { ui?: unknown } | undefined)?.ui;
  if (ui === undefined) {
    // Hosts read the contents first and the listing as the fallback.
    const listed = (await client.listResources().catch(() => [])).find((resource) => resource.uri === uri);
    ui = (listed?._meta as { ui?: unknown } | undefined)?.ui;
  }
  return { uri, html, meta: readAppResourceMeta(ui) };
}

/**
 * Opens the app of a tool call: reads the tool's `ui://` resource (calling the tool first when the
 * call carries no result) and returns the view; rejects with `APP_NOT_FOUND` for a tool without an
 * app resource or a resource that is not `text/html;profile=mcp-app`.
 */
export async function openAppView(
  connection: Pick<McpConnection, 'registry' | 'client' | 'callTool'>,
  call: AppToolCall,
  options: OpenAppViewOptions = {},
): Promise<AppView> {
  const tool = connection.registry.get(call.name);
  const uri = tool?.app?.resourceUri;
  if (tool === undefined || !isAppResourceUri(uri)) {
    throw new ClientError({
      code: tool === undefined ? ClientErrorCode.ToolNotFound : ClientErrorCode.AppNotFound,
      message:
        tool === undefined
          ? `No tool "${call.name}" on this connection; give the tool's public name.`
          : `Tool "${call.name}" has no app (its _meta names no ui:// resource).`,
      context: { tool: call.name },
    });
  }
  const args = call.arguments ?? {};
  const signal = options.signal;
  const [resource, toolResult] = await Promise.all([
    readAppResource(connection, tool, uri),
    call.result ??
      (connection.callTool(call.name, args, {
        rawResult: true,
        ...(signal === undefined ? {} : { signal }),
      }) as Promise<CallToolResult>),
  ]);
  return {
    tool,
    resource,
    toolInput: { arguments: args },
    toolResult,
    async handleAppRequest(request, requestOptions = {}) {
      const params = objectParams(request.params);
      const requestSignal = requestOptions.signal;
      switch (request.method) {
        case 'tools/call': {
          const target = resolveAppToolCall(connection, tool.server, params.name);
          const toolArgs = objectParams(params.arguments);
          // The registered tool's execute: validation, approval, supervision, as a model's call.
          return (await connection.callTool(target.name, toolArgs, {
            rawResult: true,
            ...(requestSignal === undefined ? {} : { signal: requestSignal }),
          })) as CallToolResult;
        }
        case 'resources/read': {
          const wanted = params.uri;
          if (typeof wanted !== 'string' || wanted === '') {
            throw refused(`The app of server "${tool.server}" sent resources/read without a uri.`, {
              server: tool.server,
            });
          }
          const client = connection.client(tool.server);
          if (client === undefined) {
            throw new ClientError({
              code: ClientErrorCode.ConnectionClosed,
              message: `The app's resources/read "${wanted}": MCP server "${tool.server}" is not connected; try again once it is back.`,
              context: { server: tool.server, uri: wanted },
            });
          }
          return (await client.readResource(wanted)) as ReadResourceResult;
        }
        case 'ping':
          return {};
        default:
          throw refused(
            `The app of server "${tool.server}" sent ${request.method}; a host answers tools/call, resources/read and ping for it (ui/* requests are the page's, through its AppBridge).`,
            { server: tool.server, method: request.method },
          );
      }
    },
  };
}

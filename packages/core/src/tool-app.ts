/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension) as core knows it: the names the extension
 * reserves, and a tool's app metadata read from its `_meta` — `_meta.ui` (and the older flat
 * `_meta["ui/resourceUri"]`) — into one typed record that the registry keeps on the tool. Reading
 * is lenient: a malformed field of a server's metadata is left out, never a reason to refuse the
 * tool, since the tool still works as a plain tool.
 */

/** The extension's identifier: the key under `capabilities.extensions` on both sides. */
export const mcpAppsExtensionId = 'io.modelcontextprotocol/ui';

/** The MIME type of an app's HTML resource. */
export const mcpAppMimeType = 'text/html;profile=mcp-app';

/** The URI scheme of app resources (a host renders only URIs starting with it). */
export const appUriScheme = 'ui://';

/** The flat `_meta` key older servers name the resource with (deprecated by the spec, still sent). */
export const legacyAppResourceUriKey = 'ui/resourceUri';

/** Who a tool is for: the model (listed to it, callable by it) and/or an app of the same server. */
export type ToolAudience = 'model' | 'app';

/** The origins an app may reach, each list mapped by the host onto its CSP directives. */
export interface AppResourceCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[];
  /** `script-src`, `style-src`, `img-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src` (none when absent). */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** Browser features an app asks for (a host may grant them through the iframe's `allow`). */
export interface AppResourcePermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}

/** How an app resource wants to be rendered (its `_meta.ui`, on the resource or its read contents). */
export interface AppResourceMeta {
  csp?: AppResourceCsp;
  permissions?: AppResourcePermissions;
  /** A dedicated sandbox origin; its format is the host's. */
  domain?: string;
  /** `true`: a visible border and background; `false`: none; absent: the host decides. */
  prefersBorder?: boolean;
}

/**
 * A tool's app metadata: the `ui://` resource that renders its results, who the tool is for, and
 * the rendering fields some servers put on the tool rather than on the resource.
 */
export interface ToolApp extends AppResourceMeta {
  /** The `ui://` resource rendering the tool's results; absent for a helper tool an app calls. */
  resourceUri?: string;
  /** Who the tool is for, as the server said; absent means both (`["model", "app"]`). */
  visibility?: readonly ToolAudience[];
}

const audiences: ReadonlySet<string> = new Set<ToolAudience>(['model', 'app']);
const cspKeys = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const permissionKeys = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a URI an MCP Apps host renders (`ui://…`). */
export function isAppResourceUri(uri: unknown): uri is string {
  return typeof uri === 'string' && uri.startsWith(appUriScheme) && uri.length > appUriScheme.length;
}

function readCsp(value: unknown): AppResourceCsp | undefined {
  if (!isRecord(value)) return undefined;
  const csp: AppResourceCsp = {};
  for (const key of cspKeys) {
    const list = value[key];
    if (Array.isArray(list)) csp[key] = list.filter((item): item is string => typeof item === 'string');
  }
  return csp;
}

function readPermissions(value: unknown): AppResourcePermissions | undefined {
  if (!isRecord(value)) return undefined;
  const permissions: AppResourcePermissions = {};
  for (const key of permissionKeys) {
    if (isRecord(value[key])) permissions[key] = value[key] as object;
  }
  return permissions;
}

/** The rendering fields of a `_meta.ui` object (a resource's, or a tool's). */
export function readAppResourceMeta(ui: unknown): AppResourceMeta {
  const meta: AppResourceMeta = {};
  if (!isRecord(ui)) return meta;
  const csp = readCsp(ui.csp);
  if (csp !== undefined) meta.csp = csp;
  const permissions = readPermissions(ui.permissions);
  if (permissions !== undefined) meta.permissions = permissions;
  if (typeof ui.domain === 'string') meta.domain = ui.domain;
  if (typeof ui.prefersBorder === 'boolean') meta.prefersBorder = ui.prefersBorder;
  return meta;
}

/**
 * A tool's app metadata from its `_meta`, or `undefined` when the tool is not part of an app.
 * `_meta.ui.resourceUri` wins over the legacy `_meta["ui/resourceUri"]`; a URI that is not `ui://`
 * is left out, and unknown audiences in `visibility` are ignored (an empty list stays empty: the
 * tool is for no one the spec knows).
 */
export function readToolApp(meta: Readonly<Record<string, unknown>> | undefined): ToolApp | undefined {
  if (!isRecord(meta)) return undefined;
  const ui = meta.ui;
  const legacyUri = meta[legacyAppResourceUriKey];
  if (!isRecord(ui) && legacyUri === undefined) return undefined;
  const app: ToolApp = readAppResourceMeta(ui);
  const uri = isRecord(ui) && ui.resourceUri !== undefined ? ui.resourceUri : legacyUri;
  if (isAppResourceUri(uri)) app.resourceUri = uri;
  if (isRecord(ui) && Array.isArray(ui.visibility)) {
    app.visibility = ui.visibility.filter(
      (audience): audience is ToolAudience => typeof audience === 'string' && audiences.has(audience),
    );
  }
  return app;
}

/** Whether a tool's app metadata lets `audience` see (model) or call (app) it; no metadata: both. */
export function toolAppAllows(app: ToolApp | undefined, audience: ToolAudience): boolean {
  return app?.visibility === undefined || app.visibility.includes(audience);
}

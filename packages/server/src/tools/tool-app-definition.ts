/**
 * The `app` of a `defineTool` tool (MCP Apps, `io.modelcontextprotocol/ui`): the HTML that renders
 * the tool's results — given inline, as a file, or as a `ui://` resource the server already serves
 * — who the tool is for, and how the resource wants to be rendered. `defineTool` resolves it once
 * into the tool's listed `_meta` (both spellings: `_meta.ui.resourceUri` for current hosts and the
 * flat `_meta["ui/resourceUri"]` for older ones) and, for inline or file HTML, the resource the
 * server serves (`catalog/app-resources.ts`).
 */
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import {
  type AppResourceMeta,
  isAppResourceUri,
  legacyAppResourceUriKey,
  readAppResourceMeta,
  readToolApp,
  SwitchboardError,
  type ToolApp,
  type ToolAudience,
} from '@switchboard/core';

/** A tool's app, as `defineTool({ app })` takes it. */
export interface ToolAppDefinition extends AppResourceMeta {
  /** The app's HTML document (served as a `ui://` resource of type `text/html;profile=mcp-app`). */
  html?: string;
  /** A file holding the app's HTML (an absolute path or a `file:` URL), read at each `resources/read`. */
  file?: string | URL;
  /**
   * The `ui://` URI of the app: where `html`/`file` is served, or — alone — a resource the server
   * already serves (`createMcpServer({ resources })`). @default `ui://<tool name>/app.html` for `html`/`file`
   */
  resourceUri?: string;
  /** Who the tool is for: `["app"]` keeps it from models (an app's own helper). @default ['model', 'app'] */
  visibility?: ToolAudience[];
}

/** What `defineTool` keeps of a tool's app. */
export interface DefinedToolApp {
  /** The metadata as clients read it (core's `ToolApp`), for the registry. */
  readonly app: ToolApp;
  /** The tool's listed `_meta`. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The resource this tool's app serves itself (`html` or `file`); absent for a named or no resource. */
  readonly resource?: AppResourceSource;
}

/** An app resource a tool brings: its URI, its HTML source and its `_meta.ui`. */
export interface AppResourceSource {
  readonly uri: string;
  readonly html: { readonly text: string } | { readonly path: string };
  /** The resource's `_meta.ui` (CSP, permissions, domain, border); empty when none was given. */
  readonly ui: AppResourceMeta;
  /** The tool that brought it (for errors). */
  readonly tool: string;
}

function invalid(tool: string, message: string): SwitchboardError {
  return new SwitchboardError({
    code: 'INVALID_ARGUMENT',
    message: `defineTool: tool "${tool}" app: ${message}`,
    context: { tool },
  });
}

function filePathOf(tool: string, file: string | URL): string {
  let path: string;
  try {
    path = file instanceof URL || file.startsWith('file:') ? fileURLToPath(file) : file;
  } catch (error) {
    throw invalid(tool, `file ${String(file)} is not a path or a file: URL (${(error as Error).message}).`);
  }
  if (!isAbsolute(path)) {
    throw invalid(
      tool,
      `file "${path}" is relative; pass an absolute path (e.g. new URL('./app.html', import.meta.url)).`,
    );
  }
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    // Reported below with what to do.
  }
  if (!isFile) throw invalid(tool, `no file at ${path}; build the app's HTML first, or fix the path.`);
  return path;
}

// A CSP source is one token: these would end it, start another directive, or quote a keyword in.
const unsafeCspSource = /[\s;,'"]/;

/** The rendering fields as given, refused when malformed (a server's own mistake is said at once). */
function checkedResourceMeta(tool: string, definition: ToolAppDefinition): AppResourceMeta {
  const ui = readAppResourceMeta(definition);
  for (const key of ['csp', 'permissions', 'domain', 'prefersBorder'] as const) {
    if (definition[key] !== undefined && !isDeepStrictEqual(ui[key], definition[key])) {
      throw invalid(
        tool,
        `${key} ${JSON.stringify(definition[key])} is malformed; see the MCP Apps spec (csp: lists of origins, permissions: { camera: {} }, domain: a string, prefersBorder: a boolean).`,
      );
    }
  }
  for (const [key, sources] of Object.entries(ui.csp ?? {})) {
    const bad = (sources as string[]).find((source) => source === '' || unsafeCspSource.test(source));
    if (bad !== undefined) {
      throw invalid(
        tool,
        `csp.${key} holds ${JSON.stringify(bad)}; give one origin per entry, such as "https://api.example.com".`,
      );
    }
  }
  return ui;
}

/** Resolves a tool's `app` option once, checking what can be checked without the server. */
export function resolveToolApp(tool: string, definition: ToolAppDefinition): DefinedToolApp {
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
    throw invalid(tool, 'expected an object such as { html } or { file } or { resourceUri }.');
  }
  const { html, file, resourceUri, visibility } = definition;
  if (html !== undefined && file !== undefined) throw invalid(tool, 'give html or file, not both.');
  if (html !== undefined && (typeof html !== 'string' || html === '')) {
    throw invalid(tool, 'html must be a non-empty string holding the HTML document.');
  }
  if (resourceUri !== undefined && !isAppResourceUri(resourceUri)) {
    throw invalid(
      tool,
      `resourceUri ${JSON.stringify(resourceUri)} is not a ui:// URI; hosts render only ui:// resources.`,
    );
  }
  if (
    visibility !== undefined &&
    (!Array.isArray(visibility) || visibility.some((audience) => audience !== 'model' && audience !== 'app'))
  ) {
    throw invalid(tool, `visibility must list "model" and/or "app" (got ${JSON.stringify(visibility)}).`);
  }
  const ui = checkedResourceMeta(tool, definition);
  const brings = html !== undefined || file !== undefined;
  const uri = resourceUri ?? (brings ? `ui://${tool}/app.html` : undefined);
  if (!brings && Object.keys(ui).length > 0) {
    throw invalid(
      tool,
      'csp, permissions, domain and prefersBorder describe a resource this tool serves: give html or file, or put them on the resource named by resourceUri.',
    );
  }
  const toolUi: Record<string, unknown> = {};
  if (uri !== undefined) toolUi.resourceUri = uri;
  if (visibility !== undefined) toolUi.visibility = [...visibility];
  const meta: Record<string, unknown> = { ui: toolUi };
  if (uri !== undefined) meta[legacyAppResourceUriKey] = uri;
  const resolved: { app: ToolApp; meta: Record<string, unknown>; resource?: AppResourceSource } = {
    app: readToolApp(meta) ?? {},
    meta,
  };
  if (brings && uri !== undefined) {
    resolved.resource = {
      uri,
      html: html !== undefined ? { text: html } : { path: filePathOf(tool, file as string | URL) },
      ui,
      tool,
    };
  }
  return resolved;
}

/**
 * The `ui://` resources the server's own app tools bring (`defineTool({ app: { html | file } })`),
 * as a provider: listed and read as `text/html;profile=mcp-app`, each with its `_meta.ui` (CSP,
 * permissions, domain, border) on the listing and on the read contents, where hosts look first. A
 * file is read at each `resources/read`, so a rebuilt app is served without a restart. The set
 * follows the served tools (a tool added later brings its app; a removed one takes it away).
 */
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import type {
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import { mcpAppMimeType } from '@switchboard/core';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { DefinedTool } from '../tools/define-tool.js';
import type { AppResourceSource } from '../tools/tool-app-definition.js';
import type { ResourceProvider } from './content-provider.js';

/** The `_meta` of a resource or its contents: `{ ui }` when the app declared rendering fields. */
function metaOf(source: AppResourceSource): { _meta?: Record<string, unknown> } {
  return Object.keys(source.ui).length === 0 ? {} : { _meta: { ui: source.ui } };
}

/** The app resources of a server's local tools. */
export class AppResources implements ResourceProvider {
  readonly specificationVersion = 'v1';
  readonly subscribable = false;
  readonly #sources: () => readonly AppResourceSource[];

  /** `sources` answers the resources of the tools served now. */
  constructor(sources: () => readonly AppResourceSource[]) {
    this.#sources = sources;
  }

  /** Whether any served tool brings an app resource now. */
  get empty(): boolean {
    return this.#sources().length === 0;
  }

  listResources(): Resource[] {
    const seen = new Set<string>();
    const resources: Resource[] = [];
    for (const source of this.#sources()) {
      if (seen.has(source.uri)) continue;
      seen.add(source.uri);
      resources.push({ uri: source.uri, name: source.tool, mimeType: mcpAppMimeType, ...metaOf(source) });
    }
    return resources;
  }

  listResourceTemplates(): ResourceTemplate[] {
    return [];
  }

  async readResource(uri: string): Promise<ReadResourceResult | undefined> {
    const source = this.#sources().find((candidate) => candidate.uri === uri);
    if (source === undefined) return undefined;
    let text: string;
    if ('text' in source.html) {
      text = source.html.text;
    } else {
      try {
        text = await readFile(source.html.path, 'utf8');
      } catch (error) {
        throw new ServerError({
          code: ServerErrorCode.ResourceNotFound,
          message: `The app of tool "${source.tool}" (${uri}) cannot be read from ${source.html.path}: ${(error as Error).message}. Build the app's HTML, or fix the tool's app.file.`,
          data: { uri },
          context: { uri, tool: source.tool },
          cause: error,
        });
      }
    }
    return { contents: [{ uri, mimeType: mcpAppMimeType, text, ...metaOf(source) }] };
  }
}

/** What {@link checkToolApps} needs to know of the server. */
export interface ToolAppsContext {
  /** Whether the server's own resources or templates serve `uri`. */
  servesLocally(uri: string): boolean;
  /** Whether other providers (a gateway's upstreams, your own) may serve URIs this check cannot see. */
  hasOtherProviders: boolean;
}

/**
 * Refuses app tools that cannot work: two tools serving different HTML under one `ui://` URI, an
 * app resource that shadows one of the server's own resources, or a tool naming a `ui://`
 * resource nothing on the server serves (hosts must read it from the same server).
 */
export function checkToolApps(tools: Iterable<DefinedTool>, context: ToolAppsContext): void {
  const brought = new Map<string, AppResourceSource>();
  const named: Array<{ tool: string; uri: string }> = [];
  for (const tool of tools) {
    const app = tool.app;
    if (app === undefined) continue;
    const source = app.resource;
    if (source === undefined) {
      if (app.app.resourceUri !== undefined) named.push({ tool: tool.name, uri: app.app.resourceUri });
      continue;
    }
    const earlier = brought.get(source.uri);
    if (earlier !== undefined && !isDeepStrictEqual(earlier.html, source.html)) {
      throw configInvalid(
        `tools "${earlier.tool}" and "${source.tool}" both serve an app at ${source.uri} with different HTML; give one of them another app.resourceUri, or have it name the other's resource ({ resourceUri } alone).`,
        { uri: source.uri },
      );
    }
    if (context.servesLocally(source.uri)) {
      throw configInvalid(
        `tool "${source.tool}" serves its app at ${source.uri}, which a resource of this server already is; drop one, or name the resource with { resourceUri } alone.`,
        { uri: source.uri },
      );
    }
    brought.set(source.uri, source);
  }
  if (context.hasOtherProviders) return;
  for (const { tool, uri } of named) {
    if (brought.has(uri) || context.servesLocally(uri)) continue;
    throw configInvalid(
      `tool "${tool}" names the app resource ${uri}, which this server does not serve; add it to createMcpServer({ resources }) (mimeType "${mcpAppMimeType}"), or give the tool app.html or app.file.`,
      { uri, tool },
    );
  }
}

function configInvalid(message: string, context: Record<string, unknown>): ServerError {
  return new ServerError({
    code: ServerErrorCode.ConfigInvalid,
    message: `createMcpServer: ${message}`,
    context,
  });
}

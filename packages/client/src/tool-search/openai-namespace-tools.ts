/**
 * The tools of a source as OpenAI Responses API namespaces, one per MCP server, with the functions
 * inside deferred: the model sees each server's name and description, and loads a function's
 * definition through tool search (`createOpenAIToolSearch`). OpenAI recommends namespaces over
 * single deferred functions: its models were trained to search them, and a deferred function alone
 * still shows its name and description up front.
 */

import type { RegisteredTool } from '@switchboard/core';
import { type OpenAINamespaceFunction, type OpenAINamespaceTool, sanitizeToolName } from '@switchboard/core';
import type { ToolSource } from '../framework-adapter/tool-source.js';
import { type ProviderTools, type ProviderToolsOptions, toOpenAITools } from '../provider-tools.js';

/** Options of {@link toOpenAINamespaces}. */
export interface OpenAINamespacesOptions extends ProviderToolsOptions {
  /** Mark the functions `defer_loading: true`. @default true */
  deferLoading?: boolean;
  /** Functions loaded up front despite `deferLoading`, by public or provider name. @default [] */
  alwaysLoad?: readonly string[];
  /** Strict mode (Structured Outputs) schemas. @default false */
  strict?: boolean;
  /**
   * Each namespace's description, by server name: what the server is for, so the model knows what
   * to search there. @default the server's name and its first tools' names
   */
  descriptions?: Readonly<Record<string, string>>;
}

/** Tool names a default namespace description lists. */
const NAMES_IN_DESCRIPTION = 8;

/**
 * One namespace per server of the source's tools, in the order servers first appear. Functions keep
 * the provider names `toOpenAITools` gives them (unique across namespaces), so a `function_call`'s
 * `name` finds its tool in `toolsByName` whatever its `namespace`.
 */
export function toOpenAINamespaces(
  source: ToolSource,
  options: OpenAINamespacesOptions = {},
): ProviderTools<OpenAINamespaceTool> {
  const flat = toOpenAITools(source, { ...options, strict: options.strict ?? false });
  const deferLoading = options.deferLoading ?? true;
  const alwaysLoad = new Set(options.alwaysLoad ?? []);
  const namespaces = serverNamespaces(flat.toolsByName.values(), options.descriptions);
  const byServer = new Map<string, OpenAINamespaceTool>();
  for (const definition of flat.tools) {
    const registered = flat.toolsByName.get(definition.name) as RegisteredTool;
    let namespace = byServer.get(registered.server);
    if (!namespace) {
      const { name, description } = namespaces.get(registered.server) as ServerNamespace;
      namespace = { type: 'namespace', name, description, tools: [] };
      byServer.set(registered.server, namespace);
    }
    const fn: OpenAINamespaceFunction = {
      type: 'function',
      name: definition.name,
      parameters: definition.parameters,
      strict: definition.strict,
    };
    if (definition.description !== '') fn.description = definition.description;
    if (deferLoading && !alwaysLoad.has(definition.name) && !alwaysLoad.has(registered.name))
      fn.defer_loading = true;
    namespace.tools.push(fn);
  }
  return { tools: [...byServer.values()], lossy: flat.lossy, toolsByName: flat.toolsByName };
}

/** A server's namespace: a provider-safe name unique among the servers, and what it is for. */
export interface ServerNamespace {
  name: string;
  description: string;
}

/**
 * One namespace per server of `tools`, in the order servers first appear: the server's name made
 * provider-safe (a suffix where two meet), and `descriptions[server]` or one naming its first tools.
 * The framework adapters group their deferred tools by the same names.
 */
export function serverNamespaces(
  tools: Iterable<RegisteredTool>,
  descriptions: Readonly<Record<string, string>> = {},
): Map<string, ServerNamespace> {
  const toolsOfServer = new Map<string, RegisteredTool[]>();
  for (const tool of tools) {
    const list = toolsOfServer.get(tool.server);
    if (list) list.push(tool);
    else toolsOfServer.set(tool.server, [tool]);
  }
  const usedNames = new Set<string>();
  const namespaces = new Map<string, ServerNamespace>();
  for (const [server, serverTools] of toolsOfServer) {
    namespaces.set(server, {
      name: uniqueName(server, usedNames),
      description: descriptions[server] ?? defaultDescription(server, serverTools),
    });
  }
  return namespaces;
}

/** `server` made provider-safe, with a suffix where it meets a name in `used` (which it joins). */
export function uniqueName(server: string, used: Set<string>): string {
  const base = sanitizeToolName(server) || 'tools';
  let name = base;
  for (let suffix = 2; used.has(name); suffix++) name = `${base}_${suffix}`;
  used.add(name);
  return name;
}

function defaultDescription(server: string, tools: readonly RegisteredTool[]): string {
  const names = tools.slice(0, NAMES_IN_DESCRIPTION).map((tool) => tool.originalName);
  const more = tools.length > names.length ? `, and ${tools.length - names.length} more` : '';
  return `Tools of the MCP server "${server}": ${names.join(', ')}${more}.`;
}

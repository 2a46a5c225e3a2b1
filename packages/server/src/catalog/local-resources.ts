/** The server's own resources and templates (`createMcpServer({ resources, resourceTemplates })`) as a provider. */
import {
  type CompleteResult,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  UriTemplate,
} from '@modelcontextprotocol/server';
import { isAppResourceUri } from '@switchboard/core';
import type { CompletionArgument, ProviderContext, ResourceProvider } from './content-provider.js';
import type {
  ResourceDefinition,
  ResourceReadValue,
  ResourceTemplateDefinition,
} from './resource-definition.js';

/** A read value as a `ReadResourceResult` (text, bytes as base64, or a full result as is). */
export function toReadResult(
  uri: string,
  mimeType: string | undefined,
  value: ResourceReadValue,
): ReadResourceResult {
  if (typeof value === 'string') {
    return { contents: [{ uri, text: value, ...(mimeType ? { mimeType } : {}) }] };
  }
  if (value instanceof Uint8Array) {
    return {
      contents: [{ uri, blob: Buffer.from(value).toString('base64'), ...(mimeType ? { mimeType } : {}) }],
    };
  }
  return value;
}

/**
 * An app resource's `_meta.ui` (CSP, permissions…) on its read contents too, where MCP Apps hosts
 * look first, when `read` returned plain text or bytes and the definition declared it.
 */
function withAppMeta(result: ReadResourceResult, resource: ResourceDefinition): ReadResourceResult {
  const ui = resource._meta?.ui;
  if (ui === undefined || !isAppResourceUri(resource.uri)) return result;
  return {
    ...result,
    contents: result.contents.map((content) =>
      content.uri === resource.uri && content._meta?.ui === undefined
        ? { ...content, _meta: { ...content._meta, ui } }
        : content,
    ),
  };
}

/** Values a completer returned, capped at the 100 the spec allows per answer. */
export function toCompleteResult(values: string[]): CompleteResult {
  return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
}

/** The local resources of a server. */
export class LocalResources implements ResourceProvider {
  readonly specificationVersion = 'v1';
  readonly subscribable = true;
  readonly #resources: Map<string, ResourceDefinition>;
  readonly #templates: Array<{ definition: ResourceTemplateDefinition; template: UriTemplate }>;

  constructor(resources: ResourceDefinition[], templates: ResourceTemplateDefinition[]) {
    this.#resources = new Map(resources.map((resource) => [resource.uri, resource]));
    this.#templates = templates.map((definition) => ({
      definition,
      template: new UriTemplate(definition.uriTemplate),
    }));
  }

  /** Whether there is anything to serve. */
  get empty(): boolean {
    return this.#resources.size === 0 && this.#templates.length === 0;
  }

  listResources(): Resource[] {
    return [...this.#resources.values()].map(({ read: _read, ...resource }) => resource);
  }

  listResourceTemplates(): ResourceTemplate[] {
    return this.#templates.map(({ definition }) => {
      const { read: _read, complete: _complete, ...template } = definition;
      return template;
    });
  }

  async readResource(uri: string, context: ProviderContext): Promise<ReadResourceResult | undefined> {
    const resource = this.#resources.get(uri);
    if (resource !== undefined) {
      const result = toReadResult(
        uri,
        resource.mimeType,
        await resource.read(uri, { signal: context.signal }),
      );
      return withAppMeta(result, resource);
    }
    for (const { definition, template } of this.#templates) {
      const variables = template.match(uri);
      if (variables === null) continue;
      return toReadResult(
        uri,
        definition.mimeType,
        await definition.read(uri, variables, { signal: context.signal }),
      );
    }
    return undefined;
  }

  /** Whether `uri` is one of its resources or matches one of its templates. */
  serves(uri: string): boolean {
    return this.#resources.has(uri) || this.#templates.some(({ template }) => template.match(uri) !== null);
  }

  async subscribe(uri: string): Promise<boolean> {
    return this.serves(uri);
  }

  async completeTemplateArgument(
    uriTemplate: string,
    argument: CompletionArgument,
  ): Promise<CompleteResult | undefined> {
    const entry = this.#templates.find(({ definition }) => definition.uriTemplate === uriTemplate);
    if (entry === undefined) return undefined;
    const completer = entry.definition.complete?.[argument.name];
    return toCompleteResult(
      completer ? await completer(argument.value, { arguments: argument.context }) : [],
    );
  }
}

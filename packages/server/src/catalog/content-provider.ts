/**
 * Versioned extension points for what a server serves besides its tools: resources (with
 * templates and subscriptions) and prompts. The server's own definitions are one provider; the
 * gateway adds one over its upstream servers. Change notifications go through the server's event
 * bus (`server.bus.publish(...)`), never through the provider.
 */
import type {
  CompleteResult,
  GetPromptResult,
  InputRequiredResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../protocol/protocol-versions.js';
import type { PromptContext } from './prompt-definition.js';

/** What a provider's calls receive. */
export interface ProviderContext {
  signal: AbortSignal;
  era: ProtocolEra;
  /** Who the request's HTTP auth names (token subject, client id or token name); absent without auth. */
  principal?: string;
  /** The 2025 session the request arrived on; absent for stateless serving. */
  sessionId?: string;
  /**
   * The OpenTelemetry `Context` of the request's SERVER span, when it is traced: what the provider
   * asks of other servers is its child (a gateway passes it to its upstream request). Typed
   * `unknown` so these types need no `@opentelemetry/api`.
   */
  traceContext?: unknown;
}

/** One argument being completed, and the values of the others. */
export interface CompletionArgument {
  name: string;
  value: string;
  /** Values of the other arguments, as the client sent them. */
  context: Record<string, string>;
}

/** A source of resources and resource templates (`specificationVersion: 'v1'`). */
export interface ResourceProvider {
  readonly specificationVersion: 'v1';
  /** Whether `resources/subscribe` can be offered for its resources. */
  readonly subscribable: boolean;
  listResources(context: ProviderContext): Promise<Resource[]> | Resource[];
  listResourceTemplates(context: ProviderContext): Promise<ResourceTemplate[]> | ResourceTemplate[];
  /** Reads `uri`; `undefined` when this provider does not serve it. */
  readResource(
    uri: string,
    context: ProviderContext,
  ): Promise<ReadResourceResult | undefined> | ReadResourceResult | undefined;
  /**
   * Starts watching `uri` (its updates are published on the server's bus as `resource_updated`);
   * `false` when this provider does not serve it. Called once per URI, when the first client subscribes.
   */
  subscribe?(uri: string): Promise<boolean>;
  /** Stops watching `uri`, when the last subscriber left. */
  unsubscribe?(uri: string): Promise<void>;
  /** Completes an argument of one of its templates; `undefined` when the template is not its own. */
  completeTemplateArgument?(
    uriTemplate: string,
    argument: CompletionArgument,
    context?: ProviderContext,
  ): Promise<CompleteResult | undefined>;
}

/** A source of prompts (`specificationVersion: 'v1'`). */
export interface PromptProvider {
  readonly specificationVersion: 'v1';
  listPrompts(context: ProviderContext): Promise<Prompt[]> | Prompt[];
  /** Gets a prompt; `undefined` when this provider has no prompt of that name. */
  getPrompt(
    name: string,
    args: Record<string, string>,
    context: PromptContext,
  ): Promise<GetPromptResult | InputRequiredResult | undefined>;
  /** Completes an argument of one of its prompts; `undefined` when the prompt is not its own. */
  completePromptArgument?(
    name: string,
    argument: CompletionArgument,
    context?: ProviderContext,
  ): Promise<CompleteResult | undefined>;
}

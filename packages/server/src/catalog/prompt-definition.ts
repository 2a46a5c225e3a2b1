/** Prompts a Switchboard MCP server serves. */
import type {
  ClientCapabilities,
  GetPromptResult,
  InputRequiredResult,
  PromptArgument,
} from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../protocol/protocol-versions.js';

/** What `get` receives besides the arguments. */
export interface PromptContext {
  signal: AbortSignal;
  /** The era the request is served in. */
  era: ProtocolEra;
  /** What the client declared it can do. */
  clientCapabilities: ClientCapabilities;
  /** On a retry after `inputRequired(...)`: the client's answers by key. */
  inputResponses?: Record<string, unknown>;
  /** On such a retry: the `requestState` the prompt returned (after its integrity check). */
  requestState?: string;
  /** The OpenTelemetry `Context` of the request's span, when it is traced (see `ProviderContext`). */
  traceContext?: unknown;
}

/** A prompt: named arguments in, messages out. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  /**
   * Builds the prompt's messages; a string becomes one user text message. May return the SDK's
   * `inputRequired(...)` to ask the client first (answered in-band on 2026-07-28; on a 2025 session
   * the requests go to the client and `get` runs again with the answers).
   */
  get(
    args: Record<string, string>,
    context: PromptContext,
  ): Promise<GetPromptResult | InputRequiredResult | string> | GetPromptResult | InputRequiredResult | string;
  /** Completion of arguments: values for argument `name` starting like `value`. */
  complete?: Record<
    string,
    (value: string, context: { arguments: Record<string, string> }) => Promise<string[]> | string[]
  >;
}

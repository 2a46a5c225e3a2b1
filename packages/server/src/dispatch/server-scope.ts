/**
 * What request handlers see of their server: its identity, catalogs, seals and stores. One
 * interface, implemented by the server (`mcp-server.ts`), so handlers stay plain functions.
 */
import type { Implementation, ServerCapabilities, ServerEventBus } from '@modelcontextprotocol/server';
import type { ArgumentValidator, Logger } from '@switchboard/core';
import type { PromptProvider, ResourceProvider } from '../catalog/content-provider.js';
import type { ResourceSubscriptions } from '../catalog/resource-subscriptions.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import type { CacheHint } from '../protocol/encode-result.js';
import type { ProtocolEra } from '../protocol/protocol-versions.js';
import type { LegacySession } from '../session/legacy-session.js';
import type { TaskRelay } from '../tasks/task-relay.js';
import type { TaskStore } from '../tasks/task-store.js';
import type { RequestTelemetry } from '../telemetry/request-telemetry.js';
import type { ApprovalPrompt } from '../tools/approval-prompt.js';
import type { RequestStateSeal } from '../tools/request-state-seal.js';
import type { SuspendedCalls } from '../tools/suspended-calls.js';

/** A server as its request handlers see it. */
export interface ServerScope {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly tools: ToolCatalog;
  /** Where a person is asked about tools whose policy says `ask`. */
  readonly approvalPrompt: ApprovalPrompt;
  /** Why a tool name that is not served is missing, beyond what the registry knows. */
  readonly missingToolHint?: ((name: string) => string | undefined | Promise<string | undefined>) | undefined;
  readonly validator: ArgumentValidator;
  readonly resourceProviders: readonly ResourceProvider[];
  readonly promptProviders: readonly PromptProvider[];
  readonly subscriptions: ResourceSubscriptions;
  readonly seal: RequestStateSeal;
  readonly suspended: SuspendedCalls;
  /** The tasks of the tasks extension (one store per server). */
  readonly tasks: TaskStore;
  /** Tasks held elsewhere (a gateway's upstreams), asked for ids the store does not hold. */
  readonly taskRelay?: TaskRelay | undefined;
  readonly logger: Logger;
  /** Put stack traces of failing tools into results. */
  readonly debug: boolean;
  /** Cache hints of cacheable results (2026-07-28). */
  readonly cacheHint: CacheHint | undefined;
  /** Change events (list_changed, resource updates) for sessions and listen streams. */
  readonly bus: ServerEventBus;
  /** Spans and metrics of requests (OpenTelemetry), when a provider is registered. */
  readonly telemetry: RequestTelemetry;
  /** The capabilities this server declares in an era. */
  capabilities(era: ProtocolEra): ServerCapabilities;
  /** Registers a 2025 session (for unsolicited notifications) once it is initialized. */
  attachSession(session: LegacySession): void;
}

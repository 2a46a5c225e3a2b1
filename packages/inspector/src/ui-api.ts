/**
 * The contract between the inspector's process (`switchboard ui`) and its page: every HTTP route's
 * request and answer, and every live event. The page (src/page) imports these types only, so a
 * change here is checked on both sides; the package exports them for other clients of the API.
 *
 * Transport: JSON over HTTP under `/api/`, live events as Server-Sent Events on `GET /api/events`.
 * Every request carries the token: the `?token=` of the printed URL once (answered with an
 * HttpOnly, SameSite=Strict cookie), then the cookie or an `X-Switchboard-Token` header.
 * Errors are `UiErrorBody` with a 4xx/5xx status.
 */
import type { ServerCardSummary } from '@switchboard/client';
import type { JsonSchema } from '@switchboard/core';

/** Any error answer: what went wrong, where, and what to do. */
export interface UiErrorBody {
  error: {
    /** A code from the error tables (core / client / inspector), e.g. `UNKNOWN_SERVER`, `INVALID_ARGUMENTS`. */
    code: string;
    message: string;
    /** Argument errors, one per field, for the call form (`path` is a JSON Pointer, `''` = the whole object). */
    fields?: UiFieldError[];
  };
}

export interface UiFieldError {
  /** JSON Pointer into the arguments, e.g. `/message` or `/items/0/name`. */
  path: string;
  message: string;
}

// ---------------------------------------------------------------- servers

/** `GET /api/servers` → `UiServer[]`; `GET /api/servers/:name` → `UiServer`. */
export interface UiServer {
  name: string;
  /** `connecting`, `connected`, `reconnecting`, `failed`, `needs-auth`, `disconnected`, … (the client's ServerState, plus `disconnected` after a disconnect from the page). */
  state: string;
  /** Where it came from: the config files, or added in the page. */
  origin: 'config' | 'page';
  /** `stdio`, `http`, `sse` or `ws`. */
  transport: string;
  /** What it runs or where it is, redacted (`npx -y @modelcontextprotocol/server-everything`, `https://host/mcp`). */
  target: string;
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  serverInfo?: { name: string; version: string };
  toolCount: number;
  respawns: number;
  lastError?: { code: string; message: string; at: string };
  /** Calls made through this process, and their latency (ms). */
  calls: number;
  errors: number;
  latency: { p50?: number; p95?: number };
  /** Set when this server is a Switchboard gateway: the upstream servers it serves, from its tool names. */
  upstreams?: string[];
}

/**
 * `GET /api/servers/:name/card` → `UiServerCard`: the server's Server Card (SEP-2127), read from the
 * server itself (not through the connection), so it shows before or without a working connection.
 */
export interface UiServerCard {
  /** `none`: the server publishes no card (or it could not be read); `not-remote`: a stdio server has none. */
  status: 'found' | 'none' | 'not-remote';
  /** What the card says (its `url`: where it was read, origin and path only). */
  card?: ServerCardSummary;
}

/** `POST /api/servers` body: a server added in the page (not written to any config file). */
export interface UiAddServerRequest {
  name: string;
  /** A remote server … */
  url?: string;
  headers?: Record<string, string> | undefined;
  /** … or a local command. */
  command?: string;
  args?: string[];
  env?: Record<string, string> | undefined;
}

/**
 * `POST /api/servers` → 201 `UiServer` (kept, with its `lastError`, when it fails to connect, so it
 * can be signed in to or removed).
 * `POST /api/servers/:name/connect`, `/reconnect`, `/disconnect` → `UiServer`.
 * `POST /api/servers/:name/sign-in` → `UiSignIn` (starts OAuth: the loopback redirect the CLI's
 * `auth login` uses; the sign-in URL is opened by the process and also returned for the page).
 * `DELETE /api/servers/:name` removes a server added in the page → `UiServer[]` (the servers left).
 */
export interface UiSignIn {
  server: string;
  /** The authorization URL to open (no secret in it but the PKCE challenge and state). */
  authorizationUrl?: string;
  state: 'started' | 'signed-in';
}

// ---------------------------------------------------------------- tools, resources, prompts

/** `GET /api/servers/:name/tools` → `UiToolSummary[]`. */
export interface UiToolSummary {
  server: string;
  /** The tool's name on its server. */
  name: string;
  /** Namespaced name in the registry (`everything__echo`). */
  publicName: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
  /** `read`, `write`, `destructive`, `open-world`… as core classifies it. */
  kind?: string;
  /** What the approval policy says for it. */
  approval: 'allow' | 'ask' | 'deny';
  /** MCP Apps: the `ui://` resource rendering its results, and who it is for (`["app"]`: kept from models). */
  app?: UiToolApp;
}

/** A tool's MCP Apps metadata, as the page needs it. */
export interface UiToolApp {
  resourceUri?: string;
  /** As the server listed it; absent means both (`["model", "app"]`). */
  visibility?: Array<'model' | 'app'>;
}

/** `GET /api/servers/:name/tools/:tool` → `UiToolDetail`. */
export interface UiToolDetail extends UiToolSummary {
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** The converted forms the providers would get, and what each conversion lost. */
  providers: Record<'openai' | 'anthropic' | 'gemini', UiProviderForm>;
}

export interface UiProviderForm {
  /** The tool as that provider's API takes it. */
  tool: unknown;
  /** Lossy changes (core's LossyChange: kind, path, detail). Empty when exact. */
  lossy: Array<{ kind: string; path: string; detail: string }>;
  /** Set when the provider would reject the tool outright. */
  rejected?: string;
}

/** `GET /api/servers/:name/resources` → `UiResources`; `POST /api/servers/:name/resources/read` `{ uri }` → the `ReadResourceResult`. */
export interface UiResources {
  resources: Array<{ uri: string; name?: string; title?: string; description?: string; mimeType?: string }>;
  templates: Array<{
    uriTemplate: string;
    name?: string;
    title?: string;
    description?: string;
    mimeType?: string;
  }>;
}

/** `GET /api/servers/:name/prompts` → `UiPrompt[]`; `POST /api/servers/:name/prompts/get` `{ name, arguments }` → the `GetPromptResult`. */
export interface UiPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

// ---------------------------------------------------------------- calls

/**
 * `POST /api/calls` → 202 `UiCallStarted`, or 422 `UiErrorBody` with `fields` when the arguments
 * fail our validator (nothing is sent to the server then). The call's progress, approval prompt
 * and end arrive as events (`call-progress`, `approval`, `call-end`) with its `callId`;
 * `GET /api/calls/:id` → `UiCall` at any time; `GET /api/calls` → `UiCall[]` (the recent ones,
 * oldest first). `POST /api/calls/:id/cancel` cancels it (notifications/cancelled to the server)
 * → `UiCall`.
 */
export interface UiCallRequest {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
}

export interface UiCallStarted {
  callId: string;
}

export interface UiCall {
  callId: string;
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  state: 'awaiting-approval' | 'running' | 'done' | 'failed' | 'cancelled' | 'refused';
  startedAt: string;
  durationMs?: number;
  progress?: UiProgress;
  /** The server's CallToolResult, exactly as it came (redacted). */
  result?: unknown;
  /** Set for failed / refused / cancelled. */
  error?: UiErrorBody['error'];
  /** Set when an MCP App rendered in the page made the call (its view, its resource). */
  app?: UiCallingApp;
}

/** The app behind a call or an approval prompt. */
export interface UiCallingApp {
  viewId: string;
  resourceUri: string;
}

export interface UiProgress {
  progress: number;
  total?: number;
  message?: string;
}

// ---------------------------------------------------------------- server → user requests

/** A question waiting for the user: approval of a call, an elicitation, a sampling request. */
export type UiPendingRequest = UiApprovalRequest | UiElicitationRequest | UiSamplingRequest;

/** Answer: `POST /api/pending/:id` with `{ approved: boolean }`. */
export interface UiApprovalRequest {
  kind: 'approval';
  id: string;
  callId: string;
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** Why the policy asks (e.g. `destructiveHint`). */
  reason: string;
  /** Set when an MCP App rendered in the page asks for the call, not the person. */
  app?: UiCallingApp;
}

/** Answer: `POST /api/pending/:id` with `{ action: 'accept' | 'decline' | 'cancel', content? }`. */
export interface UiElicitationRequest {
  kind: 'elicitation';
  id: string;
  server: string;
  /** The call of the page the request belongs to, when it belongs to one. */
  callId?: string;
  message: string;
  /** Form mode: the flat schema to render (strings, numbers, booleans, enums). */
  requestedSchema?: JsonSchema;
  /** URL mode: the page shows the link to open. */
  url?: string;
}

/** Answer: `POST /api/pending/:id` with `{ action: 'accept', text }` (the user writes the model's reply) or `{ action: 'decline' }`. */
export interface UiSamplingRequest {
  kind: 'sampling';
  id: string;
  server: string;
  /** The call of the page the request belongs to, when it belongs to one. */
  callId?: string;
  /** The messages the server wants a completion for (the sampling/createMessage params). */
  params: unknown;
}

/** `GET /api/pending` → `UiPendingRequest[]` (what is waiting now). An answer (`POST /api/pending/:id`) → `{ answered: id }`. */
export type UiPendingList = UiPendingRequest[];

// ---------------------------------------------------------------- protocol log

/**
 * One JSON-RPC message in or out of a server, redacted like our logs. `GET /api/log?server=&since=&limit=`
 * → `UiLogEntry[]` (the ring buffer, oldest first; `limit`: only the newest that many).
 */
export interface UiLogEntry {
  /** Increasing id; `since` returns entries after it. */
  seq: number;
  at: string;
  server: string;
  /** `out`: this process → server; `in`: server → this process. */
  direction: 'in' | 'out';
  /** `request`, `response`, `error`, `notification`. */
  type: 'request' | 'response' | 'error' | 'notification';
  /** The method, for requests and notifications (responses: the request's method when known). */
  method?: string;
  /** The JSON-RPC id, when it has one. */
  id?: string | number;
  /**
   * `app`: a message between an MCP App rendered in the page and this process (`in`: the app's
   * request, `out`: the answer); absent: between this process and the server.
   */
  channel?: 'app';
  message: unknown;
}

// ---------------------------------------------------------------- MCP Apps

/**
 * `POST /api/apps` `{ callId }` → `UiAppView`: the app of an ended call of an app tool, ready to
 * render. The page loads `sandboxUrl` — a page of another origin (another port), which loads the
 * app's HTML with the CSP its resource declares, in a frame of no origin at all — and talks to the
 * app through the official AppBridge. `POST /api/apps/:viewId/requests` `UiAppRequest` → the answer
 * to what the app asked (`tools/call` through the same approval prompt as the page's calls,
 * `resources/read` on the app's server, `notifications/message` logged): every one in the protocol
 * log. `DELETE /api/apps/:viewId` → `{ closed: viewId }` (its sandbox pages are gone).
 */
export interface UiAppView {
  viewId: string;
  /** The sandbox page to frame (`http://127.0.0.1:<sandbox port>/views/<viewId>/`). */
  sandboxUrl: string;
  /** The sandbox's origin, which the page checks messages against. */
  sandboxOrigin: string;
  server: string;
  resourceUri: string;
  /** The tool as its server listed it (`hostContext.toolInfo.tool`). */
  tool: {
    name: string;
    title?: string;
    description?: string;
    inputSchema: JsonSchema;
    outputSchema?: JsonSchema;
    annotations?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  };
  /** `ui/notifications/tool-input` params. */
  toolInput: { arguments: Record<string, unknown> };
  /** `ui/notifications/tool-result` params: the call's CallToolResult (redacted). */
  toolResult: unknown;
  /** What the resource asked for (`_meta.ui`). */
  requested: UiAppResourceMeta;
  /** What the sandbox grants: the CSP domains and permissions in force (the iframe's `allow`). */
  granted: { csp: UiAppCsp; permissions: Record<string, object>; allow: string };
}

/** An app resource's `_meta.ui`. */
export interface UiAppResourceMeta {
  csp?: UiAppCsp;
  permissions?: Record<string, object>;
  domain?: string;
  prefersBorder?: boolean;
}

/** The origins an app may reach (MCP Apps `McpUiResourceCsp`). */
export interface UiAppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** A request of an app, relayed by the page: the JSON-RPC method and params. */
export interface UiAppRequest {
  method: string;
  params?: unknown;
}

// ---------------------------------------------------------------- selection playground

/** `POST /api/select` → `UiSelection`. */
export interface UiSelectRequest {
  query: string;
  /** @default 8 */
  k?: number;
  /** Score under which a tool is not selected (the threshold line). @default the selector's documented default */
  minScore?: number;
  /** @default 'hybrid' */
  signals?: 'hybrid' | 'dense' | 'lexical';
  alwaysInclude?: string[];
  /** A folder in the benchmark format (`tools.jsonl`, one tool a line, + `queries.jsonl`) to rank instead of the connected tools; relative to the process's cwd. */
  dataset?: string;
}

export interface UiSelection {
  query: string;
  /** The ranking, best first, longer than `k` so the page can draw the line. */
  ranking: UiRankedTool[];
  /** How many of `ranking` are selected (above the line and within `k`, plus alwaysInclude). */
  selectedCount: number;
  minScore: number;
  embedder?: string;
  denseUnavailable?: string;
  tokens: {
    selectedTokens: number;
    totalTokens: number;
    selectedTools: number;
    totalTools: number;
    savedTokens: number;
  };
  durationMs: number;
}

export interface UiRankedTool {
  /** The public (namespaced) name, as `alwaysInclude` takes it. */
  name: string;
  /** The tool's name on its server. */
  originalName?: string;
  server: string;
  description?: string;
  score: number;
  denseRank?: number;
  denseScore?: number;
  lexicalRank?: number;
  lexicalScore?: number;
  alwaysIncluded?: boolean;
  selected: boolean;
}

// ---------------------------------------------------------------- metrics

/** `GET /api/metrics` → `UiMetrics`. */
export interface UiMetrics {
  /** Samples taken every few seconds while the page is open: latency p50/p95 and calls per server. */
  series: Array<{
    at: number;
    servers: Record<string, { calls: number; errors: number; p50?: number; p95?: number }>;
  }>;
  /** Calls per tool: this process's counts plus the registry store's usage from earlier runs. */
  toolCalls: Array<{ server: string; tool: string; calls: number; errors: number; storedCalls?: number }>;
}

// ---------------------------------------------------------------- tool trust

/**
 * `GET /api/trust` → `UiTrustReview[]`: the tools tool trust holds back from the model — pending
 * (quarantined until a person decides) and rejected ones their server still lists — each with a
 * readable diff against the pinned definition and the findings of the rules.
 * `POST /api/trust/approve` and `POST /api/trust/reject` `UiTrustDecisionRequest` →
 * `UiTrustDecision` (the connection's `trust.approve` / `trust.reject`): an approved tool is
 * registered again (a `tools-changed` event follows) and becomes callable; a rejected one stays
 * hidden and refused. A `trust` event says the list changed (a quarantine, or a decision made here,
 * by `switchboard tools approve`, or by another process on the same store).
 */
export interface UiTrustReview {
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** The definition under review. */
  digest: string;
  status: 'pending' | 'rejected';
  /** Why it is held back: `changed`, `new-tool`, `renamed`, `new-server`, `finding`. */
  change?: string;
  /** The parts of a changed definition (`description`, `inputSchema`, …). */
  parts?: string[];
  /** The pinned name of a renamed tool. */
  previousName?: string;
  /** The pinned definition the diff is against; absent for a tool never pinned. */
  pinnedDigest?: string;
  /** When it was quarantined or decided (ISO). */
  decidedAt: string;
  /** The definition against the pinned one, one value a line, invisible characters as `<U+XXXX>`. */
  diff: UiTrustDiffLine[];
  findings: UiTrustFinding[];
}

/** One line of a definition diff. */
export interface UiTrustDiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** What a rule flagged, with the flagged span in its context so the page can highlight it. */
export interface UiTrustFinding {
  /** The rule (`model-instruction`). */
  rule: string;
  /** Its code (`SENSITIVE_FILE_ACCESS`). */
  code: string;
  severity: 'info' | 'low' | 'medium' | 'high' | 'critical';
  /** Where the text is (`description`, `inputSchema.properties.path.description`, `name`). */
  field: string;
  /** What was found and why it matters. */
  message: string;
  /** The field's text around the span, made visible: up to 80 characters either side. */
  before: string;
  /** The flagged span itself (made visible, cut at 300 characters). */
  flagged: string;
  after: string;
}

/** Which definitions a decision covers: one tool, one digest, or every pending one of the server. */
export interface UiTrustDecisionRequest {
  server: string;
  tool?: string;
  digest?: string;
}

/** The records a decision wrote. */
export interface UiTrustDecision {
  decision: 'approved' | 'rejected';
  records: Array<{ server: string; tool: string; digest: string; status: string }>;
}

// ---------------------------------------------------------------- live events

/** `GET /api/events` (SSE): `event: <type>`, `data: <JSON of the payload>`. */
export type UiEvent =
  | { type: 'servers'; servers: UiServer[] }
  | { type: 'log'; entries: UiLogEntry[] }
  | { type: 'call-progress'; callId: string; progress: UiProgress }
  | { type: 'call-end'; call: UiCall }
  | { type: 'pending'; request: UiPendingRequest }
  | { type: 'pending-done'; id: string }
  | { type: 'tools-changed'; server: string }
  | { type: 'trust' };

export type UiEventType = UiEvent['type'];

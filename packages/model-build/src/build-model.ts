/**
 * Builds the offline default model of @switchboard/tool-selection as named steps, one module each:
 * vocabulary → teacher-vectors → pca → sif-weights → tokenizer → tokenlearn-targets → the token-row
 * stages (tokenlearn-refit, …) → quantize → onnx-writer, tokenizer-writer, teacher projection →
 * build-info. Deterministic and CPU only; the teacher's vectors are cached (teacher-vectors.ts) and the
 * refit's targets committed (tokenlearn-targets.ts), so a rebuild costs ~30–60 s.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkOfflineModel,
  OFFLINE_MODEL_FILES,
  OFFLINE_MODEL_TEACHER_DIMS,
  OFFLINE_MODELS_DIR,
  teacherProjectionLength,
} from '@switchboard/tool-selection';
import { type ModelBuildInfo, modelBuildInfo, modelCacheKey } from './build-info.js';
import { type BuildLog, createBuildLog } from './build-log.js';
import {
  createContrastiveFinetuneStage,
  defaultTrainingDataRoot,
  trainingDataHashes,
} from './contrastive-finetune-stage.js';
import { MODEL_STOPWORDS, type ModelRecipe, resolveRecipe } from './model-recipe.js';
import { writeStaticEmbeddingOnnx } from './onnx-writer.js';
import { applyProjection, fitPca } from './pca.js';
import { quantizeRows } from './quantize.js';
import { loadRefitCorpus } from './refit-corpus.js';
import { sifWeights, weightedTokenRows } from './sif-weights.js';
import { embedWithTeacher } from './teacher-vectors.js';
import { checkTokenRows, type TokenRowContext, type TokenRowStage, type TokenRows } from './token-rows.js';
import {
  createModelTokenizer,
  modelConfig,
  tokenizerConfig,
  tokenizerJson,
  tokenVocabulary,
} from './tokenizer-writer.js';
import { createTokenlearnRefitStage } from './tokenlearn-refit.js';
import { readTokenlearnTargets, type TokenlearnTargets } from './tokenlearn-targets.js';
import { loadVocabulary, vocabularyTexts } from './vocabulary.js';

const packageFolder = fileURLToPath(new URL('..', import.meta.url));

/** Options of {@link buildModel}. */
export interface BuildModelOptions {
  /** Folder to write `<recipe.name>/` into. @default tool-selection's models folder (`OFFLINE_MODELS_DIR`) */
  outRoot?: string;
  /** Rebuild even when the folder's build-info.json has the same cache key and its files match. @default false */
  force?: boolean;
  /** Recompute the refit targets with the teacher (~8 min) and rewrite the committed ones. @default false */
  refreshTargets?: boolean;
  /** @default MODEL_RECIPE, with `SWITCHBOARD_MODEL_RECIPE` applied by the CLI */
  recipe?: ModelRecipe;
  /** Folder of the teacher cache. @default packages/model-build/.cache (git-ignored) */
  cacheDir?: string;
  /** The committed refit targets, without extension. @default packages/model-build/data/tokenlearn-targets */
  targetsBase?: string;
  /** Folder of the fine-tuning data (the bench-format folders the recipe names). @default ../shared/bench/train from the repository root */
  dataRoot?: string;
  /** @default progress lines on standard output */
  log?: BuildLog;
}

/** What {@link buildModel} did. */
export interface BuildModelResult {
  /** The model folder. */
  folder: string;
  /** True when the folder was up to date and nothing was built. */
  skipped: boolean;
  buildInfo: ModelBuildInfo;
}

/**
 * The stages that move the float token rows, in order, between the distillation (sif-weights) and the
 * quantisation. Another stage — a contrastive fine-tuning on query → tool pairs, say — is one more entry
 * here (its module exporting a `createXStage(...)` that returns a {@link TokenRowStage}).
 */
function tokenRowStages(
  refit: { corpus: readonly string[]; targets: TokenlearnTargets },
  recipe: ModelRecipe,
  dataRoot: string,
): TokenRowStage[] {
  const stages = [createTokenlearnRefitStage(refit.corpus, refit.targets.targets)];
  if (recipe.contrastive.folders.length > 0 && recipe.contrastive.epochs > 0)
    stages.push(
      createContrastiveFinetuneStage({ recipe: recipe.contrastive, dataRoot, stopwords: MODEL_STOPWORDS }),
    );
  return stages;
}

/**
 * Runs `stages` one after the other on `rows`, each checked afterwards (same shape, finite, guard column
 * zero: `checkTokenRows`), and logs each one's time.
 */
export async function runTokenRowStages(
  rows: TokenRows,
  stages: readonly TokenRowStage[],
  context: TokenRowContext,
): Promise<TokenRows> {
  const shape = { count: rows.count, dims: rows.dims };
  let current = rows;
  for (const stage of stages) {
    const started = performance.now();
    current = await stage.run(current, context);
    checkTokenRows(current, shape, stage.name);
    context.log(`${stage.name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return current;
}

/** Runs `run` as the step `name` of the build: its time in the log, its name on its error. */
async function step<T>(log: BuildLog, name: string, run: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    log(`${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    throw new Error(`model build step "${name}" failed: ${(error as Error).message}`, { cause: error });
  }
}

/** The folder's build-info when it is up to date (same key, every file matching), else undefined. */
function upToDate(folder: string, cacheKey: string): ModelBuildInfo | undefined {
  const infoPath = join(folder, OFFLINE_MODEL_FILES.buildInfo);
  if (!existsSync(infoPath)) return undefined;
  const check = checkOfflineModel(folder);
  if (!check.ok || check.buildInfo.cacheKey !== cacheKey) return undefined;
  return JSON.parse(readFileSync(infoPath, 'utf8')) as ModelBuildInfo;
}

/** Builds the model folder `<outRoot>/<recipe.name>/` (or leaves it, when up to date). */
export async function buildModel(options: BuildModelOptions = {}): Promise<BuildModelResult> {
  const recipe = options.recipe ?? resolveRecipe();
  const log = options.log ?? createBuildLog();
  const outRoot = options.outRoot ?? OFFLINE_MODELS_DIR;
  const cacheDir = options.cacheDir ?? join(packageFolder, '.cache');
  const targetsBase = options.targetsBase ?? join(packageFolder, 'data', 'tokenlearn-targets');
  const folder = join(outRoot, recipe.name);
  const dataRoot = options.dataRoot ?? defaultTrainingDataRoot;
  // The fine-tuning data is an input like the recipe: other data, another model.
  const trainingData =
    recipe.contrastive.folders.length > 0 ? trainingDataHashes(dataRoot, recipe.contrastive) : {};
  const cacheKey = modelCacheKey(recipe, MODEL_STOPWORDS, trainingData);
  const current = options.force ? undefined : upToDate(folder, cacheKey);
  if (current) {
    log(`up to date: ${folder} (key ${cacheKey})`);
    return { folder, skipped: true, buildInfo: current };
  }
  log(`building ${recipe.name} (key ${cacheKey}) into ${folder}`);
  const dims = recipe.dims;
  const axes = dims - 1;

  const vocabulary = await step(log, 'vocabulary', () => loadVocabulary(recipe.words));
  log(
    `vocabulary: ${vocabulary.words.length} words + ${vocabulary.extraWords.length} extra words + ${vocabulary.continuations.length} continuation pieces`,
  );
  const texts = vocabularyTexts(vocabulary);
  const teacher = await step(log, 'teacher-vectors', () =>
    embedWithTeacher(texts, { batchSize: recipe.teacherBatch, cacheDir, log }),
  );
  const projection = await step(log, 'pca', () =>
    fitPca(teacher, texts.length, OFFLINE_MODEL_TEACHER_DIMS, axes, recipe.pcaSample),
  );
  log(
    `PCA ${OFFLINE_MODEL_TEACHER_DIMS} -> ${axes} dims keeps ${(100 * projection.keptVariance).toFixed(1)}% of the variance`,
  );
  const distilled = await step(log, 'sif-weights', () =>
    weightedTokenRows(
      applyProjection(teacher, texts.length, projection),
      sifWeights(vocabulary, {
        sifA: recipe.sifA,
        pieceWeight: recipe.pieceWeight,
        stopwords: MODEL_STOPWORDS,
      }),
      dims,
    ),
  );
  const tokens = tokenVocabulary(vocabulary);
  const tokenizer = await step(log, 'tokenizer', () => createModelTokenizer(tokens, recipe));

  // Sentence targets from the teacher, projected through the same PCA but centred on the corpus' own mean
  // (sentence vectors share another common component than single words do).
  const corpus = loadRefitCorpus(recipe.tokenlearn.sentences);
  const targets = await step(log, 'tokenlearn-targets', () =>
    readTokenlearnTargets(corpus, projection, {
      targetsBase,
      refresh: options.refreshTargets ?? false,
      teacherBatch: recipe.tokenlearn.teacherBatch,
      cacheDir,
      log,
    }),
  );
  const rows = await runTokenRowStages(distilled, tokenRowStages({ corpus, targets }, recipe, dataRoot), {
    recipe,
    tokenizer,
    log,
  });
  const quantized = await step(log, 'quantize', () => quantizeRows(rows, recipe.bias));
  const onnxBytes = await step(log, 'onnx-writer', () => writeStaticEmbeddingOnnx(quantized));

  // For documents embedded by the teacher (createOfflineEmbedder({ documents: 'teacher' })): the corpus
  // centre and the PCA axes that map a teacher sentence vector into this model's space.
  const teacherProjection = new Float32Array(teacherProjectionLength(dims));
  teacherProjection.set(targets.centre, 0);
  teacherProjection.set(projection.data.subarray(OFFLINE_MODEL_TEACHER_DIMS), OFFLINE_MODEL_TEACHER_DIMS);

  const buildInfo = await step(log, 'write-folder', () => {
    const temporary = `${folder}.tmp-${process.pid}`;
    rmSync(temporary, { recursive: true, force: true });
    const write = (file: string, data: string | Uint8Array) => {
      mkdirSync(dirname(join(temporary, file)), { recursive: true });
      writeFileSync(join(temporary, file), data);
    };
    write(OFFLINE_MODEL_FILES.onnx, onnxBytes);
    write(OFFLINE_MODEL_FILES.tokenizer, JSON.stringify(tokenizerJson(tokens)));
    write(OFFLINE_MODEL_FILES.teacherProjection, new Uint8Array(teacherProjection.buffer));
    write(OFFLINE_MODEL_FILES.tokenizerConfig, JSON.stringify(tokenizerConfig(recipe), null, 2));
    write(OFFLINE_MODEL_FILES.config, JSON.stringify(modelConfig(recipe, rows.count), null, 2));
    const info = modelBuildInfo(temporary, {
      cacheKey,
      recipe,
      tokens: rows.count,
      corpusSentences: corpus.length,
      trainingData,
    });
    write(OFFLINE_MODEL_FILES.buildInfo, `${JSON.stringify(info, null, 2)}\n`);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(outRoot, { recursive: true });
    renameSync(temporary, folder);
    return info;
  });
  log(
    `wrote ${folder}: ${rows.count} tokens x ${dims} dims, onnx ${(onnxBytes.length / 1e6).toFixed(1)} MB, sha256 ${buildInfo.files[OFFLINE_MODEL_FILES.onnx].sha256.slice(0, 12)}`,
  );
  return { folder, skipped: false, buildInfo };
}

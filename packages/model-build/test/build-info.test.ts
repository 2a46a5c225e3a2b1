import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTemporaryDirectory } from '@switchboard/test-helpers';
import {
  checkOfflineModel,
  OFFLINE_MODEL_FILES,
  OFFLINE_MODEL_HASHED_FILES,
} from '@switchboard/tool-selection';
import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_RECIPE, MODEL_STOPWORDS, modelBuildInfo, modelCacheKey, resolveRecipe } from '../src/index.js';

const directories: Array<{ remove: () => void }> = [];
afterEach(() => {
  for (const directory of directories.splice(0)) directory.remove();
});

/** A model folder whose every hashed file holds its own name, with the build-info the build would write. */
function folderWithBuildInfo() {
  const directory = createTemporaryDirectory('model-build-info-');
  directories.push(directory);
  for (const file of OFFLINE_MODEL_HASHED_FILES) directory.write(file, file);
  const info = modelBuildInfo(directory.path, {
    cacheKey: 'k',
    recipe: resolveRecipe(),
    tokens: 10,
    corpusSentences: 5,
    trainingData: { 'seal-tools/tools.jsonl': 'ab12' },
  });
  directory.write(OFFLINE_MODEL_FILES.buildInfo, JSON.stringify(info));
  return { folder: directory.path, info };
}

describe('modelBuildInfo', () => {
  it('records the size and SHA-256 of every file but itself', () => {
    const { info } = folderWithBuildInfo();
    expect(Object.keys(info.files).sort()).toEqual([...OFFLINE_MODEL_HASHED_FILES].sort());
    // SHA-256 of the 11 bytes "config.json", computed outside (sha256sum).
    expect(info.files[OFFLINE_MODEL_FILES.config]).toEqual({
      sha256: '587cb980af76fdc7e52369fd0b9d926dff266976b6f8ac631e358fecc49ff8cf',
      bytes: 'config.json'.length,
    });
    expect(info.dims).toBe(MODEL_RECIPE.dims);
    expect(info.recipe.name).toBe('switchboard-static-en-v1');
  });

  it('passes tool-selection’s check, which then names a changed or missing file', () => {
    const { folder } = folderWithBuildInfo();
    expect(checkOfflineModel(folder).ok).toBe(true);
    writeFileSync(join(folder, OFFLINE_MODEL_FILES.onnx), 'other bytes');
    const changed = checkOfflineModel(folder);
    expect(changed.ok).toBe(false);
    if (changed.ok) return;
    expect(changed.problems).toHaveLength(1);
    expect(changed.problems[0]).toMatchObject({ file: OFFLINE_MODEL_FILES.onnx, kind: 'mismatch' });
  });
});

describe('modelCacheKey', () => {
  it('changes with the recipe and the stopwords, and only with them for the same source', () => {
    const base = modelCacheKey(resolveRecipe(), MODEL_STOPWORDS);
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    expect(modelCacheKey(resolveRecipe(), MODEL_STOPWORDS)).toBe(base);
    expect(modelCacheKey(resolveRecipe('{"dims":128}'), MODEL_STOPWORDS)).not.toBe(base);
    expect(modelCacheKey(resolveRecipe(), [...MODEL_STOPWORDS, 'tool'])).not.toBe(base);
  });
});

describe('resolveRecipe', () => {
  it('applies overrides and rejects unknown fields or bad JSON with a sentence saying what to give', () => {
    expect(resolveRecipe('{"sifA":0.003}').sifA).toBe(0.003);
    expect(resolveRecipe().sifA).toBe(1e-3);
    expect(() => resolveRecipe('{"dimz":1}')).toThrow(/"dimz", which is no recipe field/);
    expect(() => resolveRecipe('{dims')).toThrow(/is not JSON/);
    expect(() => resolveRecipe('[1]')).toThrow(/must be a JSON object/);
  });
});

describe('modelCacheKey and the fine-tuning data', () => {
  it('changes when a training file changes, so other data builds another model', () => {
    const recipe = resolveRecipe();
    const key = modelCacheKey(recipe, MODEL_STOPWORDS, { 'bfcl/queries.jsonl': 'aa' });
    expect(modelCacheKey(recipe, MODEL_STOPWORDS, { 'bfcl/queries.jsonl': 'aa' })).toBe(key);
    expect(modelCacheKey(recipe, MODEL_STOPWORDS, { 'bfcl/queries.jsonl': 'ab' })).not.toBe(key);
    expect(
      modelCacheKey({ ...recipe, contrastive: { ...recipe.contrastive, epochs: 3 } }, MODEL_STOPWORDS),
    ).not.toBe(modelCacheKey(recipe, MODEL_STOPWORDS));
  });
});

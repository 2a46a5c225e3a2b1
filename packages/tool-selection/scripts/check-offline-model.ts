/**
 * The model half of the package build: the committed offline model must match the SHA-256s of its
 * build-info.json. Nothing is trained here: the model is built on purpose by @switchboard/model-build
 * (`pnpm build:model` at the root), which rewrites the files and build-info.json together.
 *
 *   node --import tsx scripts/check-offline-model.ts [folder]
 *
 * `folder` defaults to the shipped models/switchboard-static-en-v1/ (the tests check other copies).
 */
import { join } from 'node:path';
import { checkOfflineModel } from '../src/check-offline-model.js';
import { OFFLINE_MODELS_DIR } from '../src/offline-model.js';
import { OFFLINE_MODEL_ID } from '../src/offline-model-layout.js';

const folder = process.argv[2] ?? join(OFFLINE_MODELS_DIR, OFFLINE_MODEL_ID);
const result = checkOfflineModel(folder);
if (result.ok) {
  console.log(`offline model ${OFFLINE_MODEL_ID}: every file matches build-info.json`);
} else {
  console.error(`The offline model in ${folder} does not match its build-info.json:`);
  for (const problem of result.problems)
    console.error(`  ${problem.file} (${problem.kind}): ${problem.message}`);
  console.error(
    [
      'The model files are committed (a normal build trains nothing): restore them with',
      `  git checkout -- ${folder}`,
      'To change the model on purpose, restore them first, then rebuild it at the repository root with',
      '  pnpm build:model             (add -- --force to rebuild with an unchanged recipe)',
      'which writes the files and build-info.json together (packages/model-build, MODEL.md).',
    ].join('\n'),
  );
  process.exitCode = 1;
}

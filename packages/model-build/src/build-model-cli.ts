#!/usr/bin/env node
/**
 * The command line of the model build (`pnpm build:model` at the repository root runs it through turbo):
 *
 *   switchboard-build-model [--force] [--out <dir>] [--refresh-targets]
 *
 * --force             rebuild even when the folder is up to date (same cache key, files matching)
 * --out <dir>         write <dir>/switchboard-static-en-v1/ instead of tool-selection's models folder
 * --refresh-targets   recompute the refit targets with the teacher (~8 min of CPU) and rewrite
 *                     data/tokenlearn-targets.* (committed)
 * --data <dir>        the fine-tuning folders (default ../shared/bench/train beside the repository)
 *
 * SWITCHBOARD_MODEL_RECIPE='{"dims":128}' overrides recipe fields, for experiments (and changes the key).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildModel } from './build-model.js';
import { resolveRecipe } from './model-recipe.js';

const usage = 'usage: switchboard-build-model [--force] [--out <dir>] [--refresh-targets] [--data <dir>]';

let values: { force?: boolean; out?: string; 'refresh-targets'?: boolean; data?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      force: { type: 'boolean' },
      out: { type: 'string' },
      'refresh-targets': { type: 'boolean' },
      data: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
} else {
  await buildModel({
    force: values.force ?? false,
    refreshTargets: values['refresh-targets'] ?? false,
    recipe: resolveRecipe(process.env.SWITCHBOARD_MODEL_RECIPE),
    ...(values.out === undefined ? {} : { outRoot: resolve(values.out) }),
    ...(values.data === undefined ? {} : { dataRoot: resolve(values.data) }),
  });
}

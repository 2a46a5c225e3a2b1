/**
 * vitest's global setup of the packaging suite: prepares the run (pack, local registry, publish,
 * installs) once, prints each install's figures, hands the run's file to the test files, and at the
 * end stops the registry and removes the run's folder (`SWITCHBOARD_PACKAGING_KEEP=1` keeps it).
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { installTable, preparePackagingRun } from './packaging-run.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's `run.json` (see packaging-run.ts). */
    packagingRunFile: string;
  }
}

/** Prepares the run; returns its teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runDir = realpathSync(mkdtempSync(join(tmpdir(), 'switchboard-packaging-')));
  const { run, registry } = await preparePackagingRun(runDir);
  console.log(`\npackaging run in ${runDir}`);
  console.log(`phases (s): ${JSON.stringify(run.timings)}`);
  console.log(`prebuilt binaries served: ${run.prebuilt.join('; ') || 'none (native addons compile)'}`);
  if (run.repacked.length > 0)
    console.log(`not published, packed with pnpm pack: ${run.repacked.join(', ')}`);
  console.log(`changeset publish: ${run.publish.ok ? 'ok' : 'FAILED'} (${run.publish.seconds.toFixed(1)} s)`);
  console.log(`\n${installTable(run.installs)}`);
  if (run.typesProject) {
    const { install, packages } = run.typesProject;
    console.log(
      `types project (${packages.length} libraries at once): ${install.ok ? `${install.seconds.toFixed(1)} s` : 'INSTALL FAILED'}\n`,
    );
  }
  project.provide('packagingRunFile', join(runDir, 'run.json'));
  return async () => {
    await registry.stop();
    if (process.env.SWITCHBOARD_PACKAGING_KEEP !== '1') rmSync(runDir, { recursive: true, force: true });
  };
}

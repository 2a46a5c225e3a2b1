// Each install, as a user makes it: it succeeds with plain npm and an empty cache, and its
// node_modules stays within the package's budget (src/install-budgets.ts says why each is what it is).
import { describe, expect, test } from 'vitest';
import { currentRun } from '../src/current-run.js';
import { installBudgetMiB, mebibytes } from '../src/install-budgets.js';

const run = currentRun();

describe.each(
  run.installs.map((install) => [`${install.target} on ${install.runtime.label}`, install] as const),
)('%s', (_title, install) => {
  test(`installs with plain npm from an empty cache${install.global ? ' (npm i -g)' : ''}`, () => {
    expect(install.ok, `npm install failed:\n${install.failure}`).toBe(true);
  });

  test(`node_modules within ${installBudgetMiB(install.target)} MiB`, () => {
    expect(install.ok, 'not installed').toBe(true);
    const size = mebibytes(install.bytes);
    console.log(
      `${install.runtime.label} ${install.target}: ${install.seconds.toFixed(1)} s, ${size} MiB, ${install.packageCount} packages`,
    );
    expect(size, `${install.target} takes ${size} MiB, over its budget`).toBeLessThanOrEqual(
      installBudgetMiB(install.target),
    );
  });
});

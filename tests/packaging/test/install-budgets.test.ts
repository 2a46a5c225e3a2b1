import { describe, expect, it } from 'vitest';
import { defaultBudgetMiB, installBudgetMiB, mebibytes } from '../src/install-budgets.js';
import type { InstalledProject } from '../src/install-project.js';
import { installTable } from '../src/packaging-run.js';

const install = (target: string, bytes: number, ok = true): InstalledProject => ({
  target,
  runtime: { label: 'Node 20.20.2', major: 20, node: 'node', npmCli: '', env: {} },
  global: false,
  root: '/',
  binDir: undefined,
  ok,
  failure: ok ? undefined : 'npm error',
  seconds: 12.34,
  bytes,
  packageCount: 27,
});

describe('install budgets', () => {
  it('has the budgets issue 26 sets, and the cli’s for a package without a row', () => {
    expect(installBudgetMiB('@switchboard/client')).toBe(35);
    expect(installBudgetMiB('@switchboard/tool-selection')).toBe(60);
    expect(installBudgetMiB('@switchboard/cli')).toBe(120);
    expect(installBudgetMiB('@switchboard/not-yet-written')).toBe(defaultBudgetMiB);
  });

  it('marks an install over its budget, and one that failed', () => {
    const table = installTable([
      install('@switchboard/client', 29 * 2 ** 20),
      install('@switchboard/client', 36 * 2 ** 20),
      install('@switchboard/client', 0, false),
    ]);
    const rows = table.split('\n').slice(1);
    expect(rows[0]).toMatch(/29 MiB\s+≤ 35 MiB\s+27\s+ok$/);
    expect(rows[1]).toMatch(/36 MiB\s+≤ 35 MiB\s+27\s+OVER BUDGET$/);
    expect(rows[2]).toMatch(/INSTALL FAILED$/);
    expect(mebibytes(29.96 * 2 ** 20)).toBe(30);
  });
});

// Each package README's quick start runs from the installed package, on each Node: it ends well
// having printed a line per console.log, or it serves an address that answers (tools/list at an MCP
// endpoint, 200 for a page).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { currentRun } from '../src/current-run.js';
import { installedPackageDir } from '../src/install-project.js';
import { slug } from '../src/packaging-run.js';
import { findQuickStart, installedReadme, runQuickStart } from '../src/readme-quick-start.js';

const run = currentRun();

// Side by side: each snippet mostly waits on the servers it starts.
test.concurrent.each(
  run.installs.map((install) => [`${install.target} on ${install.runtime.label}`, install] as const),
)('%s: its README quick start runs from the installed package', async (_title, install) => {
  expect(install.ok, 'not installed').toBe(true);
  const readme = installedReadme(installedPackageDir(install, install.target));
  expect(readme, 'the tarball has no README.md').toBeDefined();
  const quickStart = findQuickStart(readme as string);
  expect(quickStart, 'the README has no ```ts block').toBeDefined();
  const home = join(run.runDir, 'homes', `node${install.runtime.major}-${slug(install.target)}`);
  mkdirSync(home, { recursive: true });
  const result = await runQuickStart(install, quickStart as NonNullable<typeof quickStart>, home);
  const report = `exit ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
  if (result.served) {
    expect(result.served.status, `it serves ${result.served.url}, which did not answer 200:\n${report}`).toBe(
      200,
    );
    if (result.served.toolNames !== undefined) {
      expect(result.served.toolNames.length, `its MCP endpoint lists no tools:\n${report}`).toBeGreaterThan(
        0,
      );
    }
    return;
  }
  expect(result.timedOut, report).toBe(false);
  expect(result.exitCode, report).toBe(0);
  expect(result.lines.length, `fewer lines than console.log calls:\n${report}`).toBeGreaterThanOrEqual(
    result.logCalls,
  );
});

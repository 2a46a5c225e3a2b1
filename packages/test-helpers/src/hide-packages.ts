/**
 * A preload that makes packages unresolvable in a child process, as on a machine where they were
 * never installed: for tests of what happens without an optional peer dependency that this workspace
 * installs for other tests (`node --import <hidePackagesPreload()> …` with `HIDE_PACKAGES=a,b`).
 */
import { fileURLToPath } from 'node:url';

/** The preload's path (`fixtures/hide-packages.mjs`: an ES resolve hook and the CommonJS resolver). */
export function hidePackagesPreload(): string {
  // `src/` and `dist/` both sit one level below the package root.
  return fileURLToPath(new URL('../fixtures/hide-packages.mjs', import.meta.url));
}

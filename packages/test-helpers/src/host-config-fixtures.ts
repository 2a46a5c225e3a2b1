/**
 * Other tools' MCP config files, one folder per host in that host's documented format
 * (`fixtures/hosts/<host>/…`: Claude Desktop, Cursor, VS Code, Codex, Continue, Goose, …), for the
 * tests that read them (the client's import) and those that write them (host-config's export).
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the host fixtures (ends with a separator). */
export function hostConfigFixtures(): string {
  // `src/` and `dist/` both sit one level below the package root.
  return fileURLToPath(new URL('../fixtures/hosts/', import.meta.url));
}

/** Copies a host's fixture folder to `<folder>/fixture/<host>` (a test edits the copy); returns its path. */
export async function copyHostConfigFixture(host: string, folder: string): Promise<string> {
  const target = join(folder, 'fixture', host);
  await cp(join(hostConfigFixtures(), host), target, { recursive: true });
  return target;
}

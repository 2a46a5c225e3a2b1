/**
 * Stdio servers written for the tests of more than one package: plain `.mjs` files in this package's
 * `fixtures/`, run with this Node (`node <script>`), so that a child process needs no TypeScript loader.
 */
import { fileURLToPath } from 'node:url';

/** The fixture servers. */
export type FixtureServer = 'exit-before-initialize-server';

/**
 * The script of a fixture server. `exit-before-initialize-server`: a 2025-era server as some SDKs
 * build them, which exits on any request before `initialize` (the version probe included).
 */
export function fixtureServerScript(name: FixtureServer): string {
  // `src/` and `dist/` both sit one level below the package root.
  return fileURLToPath(new URL(`../fixtures/${name}.mjs`, import.meta.url));
}

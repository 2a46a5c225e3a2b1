/**
 * The servers the browser tests stand on, written to a temp config file: server-everything and
 * server-filesystem over stdio (the official packages, started with this Node, never `npx`), plus a
 * home of its own so that no sign-in or registry store of the machine is read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everythingStdio, filesystemStdio } from '@switchboard/test-helpers';

/** A temp folder holding the config, a home and the folder server-filesystem serves. */
export interface UiConfig {
  root: string;
  home: string;
  /** The config file to pass as `--config`. */
  file: string;
  /** The folder server-filesystem may read and write (holds `notes.txt`). */
  dataDir: string;
  cleanup(): void;
}

/**
 * Writes `{ mcpServers: { everything, files, …extraServers } }` to a fresh temp folder; `only` keeps
 * just the named ones of the two (the bench loads the page against server-everything alone).
 */
export function createUiConfig(
  options: { extraServers?: Record<string, unknown>; only?: Array<'everything' | 'files'> } = {},
): UiConfig {
  const root = mkdtempSync(join(tmpdir(), 'switchboard-ui-test-'));
  const home = join(root, 'home');
  const dataDir = join(root, 'data');
  mkdirSync(home);
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, 'notes.txt'), 'hello from the browser test\n');
  const file = join(root, 'mcp.json');
  const standard = {
    everything: everythingStdio(),
    files: filesystemStdio(dataDir),
  };
  const kept = Object.entries(standard).filter(([name]) => options.only?.includes(name as 'files') ?? true);
  const servers = { ...Object.fromEntries(kept), ...options.extraServers };
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return { root, home, file, dataDir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * The servers behind the framework adapters' tool search tests: server-everything and
 * server-memory (two real servers, so two namespaces) connected once per test file, and a keyword
 * searcher over their tools (standing in for the selector).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everythingStdio, memoryStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll } from 'vitest';
import { connectMcp, type McpConnection, type ToolSearcher } from '../../src/index.js';
import { keywordSearcher } from './keyword-searcher.js';

/** Connects the two servers before the file's tests and closes them after. */
export function useSearchServers(): { connection(): McpConnection; searcher(): ToolSearcher } {
  let connection: McpConnection | undefined;
  let folder: string | undefined;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'sb-tool-search-'));
    connection = await connectMcp(
      { everything: everythingStdio(), memory: memoryStdio(join(folder, 'memory.jsonl')) },
      { approval: 'never' },
    );
  });
  afterAll(async () => {
    await connection?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  const connected = () => {
    if (!connection) throw new Error('useSearchServers: the servers connect in beforeAll');
    return connection;
  };
  return {
    connection: connected,
    searcher: () => keywordSearcher(() => Object.values(connected().tools)),
  };
}

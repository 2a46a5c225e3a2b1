/**
 * The import loops the repository still has, tolerated by the guard until the code is sorted. Each
 * entry is matched exactly (rule, folder, members), so a loop that grows fails again, and an entry
 * whose loop is gone fails as stale: this list only shrinks. A new loop is fixed, not added here.
 */
import type { KnownLoop } from './check-layering.js';

export const knownLoops: readonly KnownLoop[] = [
  {
    rule: 'folder-cycle',
    folder: 'packages/server/src',
    members: ['catalog/', 'dispatch/', 'session/', 'tasks/', 'telemetry/', 'tools/'],
    why:
      "The server's request folders import each other both ways: dispatch/inbound-request.ts and " +
      'dispatch/server-scope.ts are read by tools/, tasks/, catalog/ and telemetry/, which dispatch/ ' +
      'imports in turn. Moving the request and scope types below the folders that use them (a folder of their own) ' +
      'is the cut; it moves files the server work of issue 18 is changing, so it waits for that.',
  },
  {
    rule: 'folder-cycle',
    folder: 'packages/server/src',
    members: ['http/', 'server/'],
    why:
      'http/ names `McpServer` (server/mcp-server.ts) as the server it serves, and server/serve.ts starts ' +
      "http/http-server.ts. Moving serve.ts up beside the package entry ends it; that edits the server's " +
      'public entry, which the server work of issue 18 owns.',
  },
];

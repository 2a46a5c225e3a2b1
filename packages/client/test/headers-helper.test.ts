/**
 * `headersHelper`: the command runs at connect, its JSON output arrives as HTTP headers at a real
 * server (merged over the static ones), and neither its output nor a failing helper's output ever
 * reaches a log line or an error message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, createMcpClient } from '../src/index.js';
import { type RunningMcpServer, startSdkV2Server } from './helpers/http-mcp-server.js';
import { createRecordingLogger, fixture } from './helpers/servers.js';

let server: RunningMcpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const helper = (mode = '') =>
  `"${process.execPath}" "${fixture('headers-helper.mjs')}"${mode ? ` ${mode}` : ''}`;

describe('headersHelper', () => {
  it('sends the helper’s headers (merged over static headers) on every request, and never logs them', async () => {
    server = await startSdkV2Server();
    const { lines, logger } = createRecordingLogger();
    const connection = await connectMcp(
      {
        remote: {
          url: server.url,
          headers: { 'X-Static': 'kept', Authorization: 'Bearer static-loses' },
          headersHelper: helper(),
        },
      },
      { logger },
    );
    try {
      expect(connection.registry.list().length).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }
    const posts = server.requests.filter((request) => request.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    for (const request of posts) {
      expect(request.headers.authorization).toBe('Bearer minted-for-remote');
      expect(request.headers['x-static']).toBe('kept');
      expect(request.headers['x-server-url']).toBe(server.url);
    }
    expect(lines.join('\n')).not.toContain('minted-for-remote');
  });

  it.each([
    ['fail', 'failed with exit status 3'],
    ['garbage', 'did not print a JSON object of header names to string values'],
  ])(
    'a helper that %s is a HEADERS_HELPER_FAILED error naming server and command, never its output',
    async (mode, problem) => {
      server = await startSdkV2Server();
      const error = await createMcpClient('tokens', { url: server.url, headersHelper: helper(mode) }).then(
        () => undefined,
        (caught: unknown) => caught as { code?: string; message: string; context?: Record<string, unknown> },
      );
      expect(error?.code).toBe('HEADERS_HELPER_FAILED');
      expect(error?.message).toContain('MCP server "tokens"');
      expect(error?.message).toContain(problem);
      expect(error?.message).toContain('headers-helper.mjs');
      expect(JSON.stringify(error?.context)).not.toContain('leaked-helper-output');
      expect(error?.message).not.toContain('leaked-helper-output');
      // It failed before anything was sent.
      expect(server.requests).toEqual([]);
    },
  );
});

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpClient } from '@switchboard/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, serverScript } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');

beforeAll(() => {
  mkdirSync(sandbox.home, { recursive: true });
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [serverScript('server-everything'), 'stdio'] },
        memory: {
          command: process.execPath,
          args: [serverScript('server-memory')],
          env: { MEMORY_FILE_PATH: join(sandbox.root, 'memory.jsonl') },
        },
      },
    }),
  );
});
afterAll(() => sandbox.cleanup());

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        child.stderr?.off('data', onData);
        resolve(match);
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`serve exited (${code}) before printing ${pattern}: ${seen}`)),
    );
  });
}

describe('switchboard serve', () => {
  it('serves the configured servers as one gateway over Streamable HTTP, then stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--config', configFile], {
      env: { ...sandbox.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [, url] = await waitForLine(child, /on (http:\/\/\S+)/);
      const client = await createMcpClient('gateway', { url: url! });
      try {
        const names = (await client.listTools()).map((tool) => tool.name);
        expect(names).toContain('mcp__everything__echo');
        expect(names).toContain('mcp__memory__read_graph');
        const result = await client.callTool('mcp__everything__echo', { message: 'through the gateway' });
        expect(JSON.stringify(result.content)).toContain('through the gateway');
      } finally {
        await client.close();
      }
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('serves over stdio: an MCP client spawns `switchboard serve` and calls an upstream tool', async () => {
    const client = await createMcpClient('gateway', {
      command: process.execPath,
      args: [bin, 'serve', '--config', configFile],
      env: { SWITCHBOARD_HOME: sandbox.home, SWITCHBOARD_LOG: 'silent' },
    });
    try {
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toContain('mcp__everything__get-sum');
      const result = await client.callTool('mcp__everything__get-sum', { a: 2, b: 3 });
      expect(JSON.stringify(result.content)).toContain('5');
    } finally {
      await client.close();
    }
  });

  it('refuses HTTP-only options without --http, exit 2', async () => {
    const run = await sandbox.run(['serve', '--port', '4000', '--config', configFile]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--http');
  });
});

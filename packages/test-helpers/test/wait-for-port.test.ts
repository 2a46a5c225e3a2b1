import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, listenOnRandomPort, waitForExit, waitForPort } from '../src/index.js';

describe('waitForPort', () => {
  it('resolves once something listens on the port', async () => {
    const port = await freePort();
    const server = createServer();
    const waiting = waitForPort(port);
    server.listen(port, '127.0.0.1');
    await waiting;
    await new Promise((resolve) => server.close(resolve));
    await using listening = await listenOnRandomPort(createServer());
    await waitForPort(listening.port, { timeoutMs: 1 });
  });

  it('fails at once when the process that was to listen exits, with its output', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['-e', "console.error('bad flag'); process.exit(2)"], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const started = Date.now();
    await expect(
      waitForPort(port, { process: child, output: () => stderr, timeoutMs: 60_000 }),
    ).rejects.toThrow(/exited \(2\) before port \d+ to accept connections/);
    expect(Date.now() - started).toBeLessThan(30_000);
    await waitForExit(child);
  });

  it('names the port it waited for when it times out', async () => {
    const port = await freePort();
    await expect(waitForPort(port, { timeoutMs: 30, what: 'nginx to listen' })).rejects.toThrow(
      'timed out after 30 ms waiting for nginx to listen',
    );
  });
});

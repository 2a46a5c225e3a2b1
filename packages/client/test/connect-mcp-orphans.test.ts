// End to end through connectMcp: when the process that connected the servers is SIGKILLed, no
// server process outlives it (the transports' process-group watchdog does the work; this checks
// the client wires it up). Runs the built dist, as users do.
import { spawn } from 'node:child_process';
import { everythingStdio, readLines, serverScript } from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';
import { fixture, processesWithEnvironment, uniqueMarker, waitFor } from './helpers/servers.js';

describe('connectMcp and a killed parent', () => {
  it('leaves no server process behind when the parent is SIGKILLed', async () => {
    const marker = uniqueMarker();
    const servers = {
      everything: everythingStdio({ env: { SB_MARKER: marker } }),
      memory: {
        command: process.execPath,
        args: [serverScript('server-memory')],
        env: { SB_MARKER: marker },
      },
    };
    const parent = spawn(process.execPath, [fixture('connect-and-wait.mjs'), JSON.stringify(servers)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = readLines(parent.stdout, "the parent's stdout");
    let stderr = '';
    parent.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      // A parent that fails exits: its stdout closes and the wait fails at once.
      await stdout
        .find((line) => line.includes('ready'), { timeoutMs: 30_000, what: 'the parent to connect' })
        .catch((error: Error) => {
          throw new Error(`${error.message}; its stderr: ${stderr}`);
        });
      expect(processesWithEnvironment(marker).length).toBeGreaterThanOrEqual(2);
      parent.kill('SIGKILL');
      await waitFor(() => processesWithEnvironment(marker).length === 0, 20_000, 'the servers to exit');
    } finally {
      parent.kill('SIGKILL');
      for (const pid of processesWithEnvironment(marker)) process.kill(pid, 'SIGKILL');
    }
  });
});

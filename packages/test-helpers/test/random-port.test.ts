import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freePort, freePorts, listenOnRandomPort } from '../src/index.js';

describe('ports', () => {
  it('listenOnRandomPort listens on 127.0.0.1 and says where', async () => {
    const server = createServer((_request, response) => response.end('here'));
    {
      await using listening = await listenOnRandomPort(server);
      expect(listening.origin).toBe(`http://127.0.0.1:${listening.port}`);
      // fetch keeps the connection alive: closing must not wait for it.
      expect(await (await fetch(listening.origin)).text()).toBe('here');
    }
    expect(server.listening).toBe(false);
  });

  it('freePorts hands out distinct ports, each one free again', async () => {
    const ports = await freePorts(5);
    expect(new Set(ports).size).toBe(5);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
    expect(await freePort()).toBeGreaterThan(0);
  });
});

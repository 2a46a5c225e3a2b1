/** Loopback ports nobody listens on: bound by the OS and released, so they can be handed out. */
import { createServer, type Server } from 'node:net';

/**
 * Asks the OS for `count` distinct free loopback ports (a replica keeps its port across restarts,
 * so port 0 will not do). All are held open together, so none is handed out twice.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let index = 0; index < count; index++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

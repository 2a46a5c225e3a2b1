/** A loopback port nobody listens on: bound once by the OS and released, so it can be handed out. */
import { createServer } from 'node:net';

/** Asks the OS for a free loopback port (a replica keeps it across restarts, so 0 will not do). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Ports for tests and benches. A server of our own listens on port 0 and reads back the port the OS
 * gave it (`listenOnRandomPort`), which cannot collide. A child process that must be told its port
 * before it starts (server-everything's `PORT`, redis, nginx) gets one that was free a moment ago
 * (`freePort`, `freePorts`): a small race, accepted because such servers cannot listen on port 0 and
 * report back. Such a child is ready once its port accepts connections (`acceptsConnections`): its
 * log lines are not a contract.
 */
import { connect, createServer, type Server } from 'node:net';

/** A server listening on a random loopback port; `close()` (or leaving an `await using` scope) stops it. */
export interface ListeningServer extends AsyncDisposable {
  port: number;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /**
   * Ends its open connections (node:http keeps idle keep-alive sockets, which would hold `close`
   * back) and closes it; resolves once it is closed, or at once when it was closed already.
   */
  close(): Promise<void>;
}

/** Starts `server` (node:net, node:http, node:https) listening on 127.0.0.1, on a port the OS picks. */
export async function listenOnRandomPort(server: Server): Promise<ListeningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on TCP');
  const close = () =>
    new Promise<void>((resolve) => {
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      server.close(() => resolve());
    });
  return {
    port: address.port,
    origin: `http://127.0.0.1:${address.port}`,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * `count` distinct loopback ports nobody listens on. All are held open together before any is
 * released, so none is handed out twice (a replica that keeps its port across restarts needs this).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let index = 0; index < count; index++) {
      const server = createServer();
      servers.push(server);
      ports.push((await listenOnRandomPort(server)).port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** Whether something accepts TCP connections on loopback `port` now. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A loopback port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}

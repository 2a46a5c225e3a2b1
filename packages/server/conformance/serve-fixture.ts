/**
 * The conformance fixture served on its own (HTTP, 127.0.0.1, port 0, stateless), for suites that
 * judge something in front of it (the gateway's Tasks conformance run): prints its URL on stdout as
 * one line, and serves until it is sent SIGTERM.
 */
import { serve } from '../src/index.js';
import { createConformanceServer } from './server.js';

const server = createConformanceServer();
const handle = await serve(server, { transport: { type: 'http', port: 0, host: '127.0.0.1' } });
console.log(handle.url);
process.once('SIGTERM', () => {
  void handle
    .close()
    .then(() => server.close())
    .then(() => process.exit(0));
});

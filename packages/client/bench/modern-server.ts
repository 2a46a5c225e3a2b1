/**
 * The bench's modern-era server in a process of its own (as server-everything is): the test
 * suite's SDK v2 server behind `createMcpHandler` on node:http, modern only. Prints its URL.
 */
import { startSdkV2Server } from '../test/helpers/http-mcp-server.js';

const server = await startSdkV2Server({ legacy: 'reject', record: false });
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});

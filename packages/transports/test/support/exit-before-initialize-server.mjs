// A 2025-era stdio server as some SDKs build them: any request before `initialize` (the version
// probe included) makes it exit. After initialize it serves one tool, `echo`.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
let initialized = false;
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (!initialized && message.method !== 'initialize') {
    process.stderr.write(`unexpected ${message.method} before initialize; exiting\n`);
    process.exit(2);
  }
  switch (message.method) {
    case 'initialize':
      initialized = true;
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'exit-before-initialize', version: '1.0.0' },
        },
      });
      return;
    case 'tools/list':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          tools: [
            {
              name: 'echo',
              description: 'Echoes the message',
              inputSchema: {
                type: 'object',
                properties: { message: { type: 'string' } },
                required: ['message'],
              },
            },
          ],
        },
      });
      return;
    case 'tools/call':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: String(message.params.arguments?.message ?? '') }] },
      });
      return;
    default:
      if (message.id !== undefined) {
        send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      }
  }
});

// The baseline of `switchboard tools`: SDK v1's client lists one stdio server's tools, nothing else.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: 'bench', version: '0.0.0' });
await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
const { tools } = await client.listTools();
for (const tool of tools) process.stdout.write(`${tool.name}\n`);
await client.close();

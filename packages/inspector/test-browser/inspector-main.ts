/**
 * The inspector as a program runs it, for the browser tests and the bench: `node --import tsx
 * inspector-main.ts --config FILE`. It reads the config with `@switchboard/client`'s `loadConfig`,
 * starts the inspector on 127.0.0.1 (port 0, no browser opened), prints its URL on stdout, as
 * `switchboard ui` does, and stops on SIGTERM or SIGINT.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '@switchboard/client';
import { startInspector } from '../src/index.js';

const { values } = parseArgs({ options: { config: { type: 'string' } } });
if (values.config === undefined) throw new Error('inspector-main: pass --config FILE');
const config = await loadConfig({
  cwd: process.cwd(),
  home: process.env.HOME ?? process.cwd(),
  env: process.env,
  configFile: values.config,
});
const inspector = await startInspector({ host: { servers: config.mcpServers, cwd: process.cwd() } });
process.stdout.write(`${inspector.url}\n`);
await new Promise<void>((resolve) => {
  process.once('SIGTERM', resolve);
  process.once('SIGINT', resolve);
});
await inspector.close();

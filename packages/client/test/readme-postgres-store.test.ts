// The README's PostgreSQL snippet runs as written (server from node_modules, a schema of its own).
import {
  createEventLog,
  localServerEverything,
  npxServerEverything,
  readmeSnippet,
  runSnippet,
} from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { dropSchemas, postgresUrl, randomSchema } from './helpers/postgres.js';

const readme = new URL('../README.md', import.meta.url);
const schema = randomSchema();

afterEach(async () => {
  await dropSchemas([schema]);
});

describe('README: Several replicas: PostgreSQL', () => {
  it('connects, calls echo, counts it and hears of the catalogue change', async () => {
    const snippet = readmeSnippet(readme, '### Several replicas: PostgreSQL');
    expect(snippet).toBeDefined();
    const runnable = (snippet as string)
      .replace("from '@switchboard/client'", "from '../src/index.js'")
      .replace("from '@switchboard/client/postgres-store'", "from '../src/postgres-store/index.js'")
      .replace(
        'connectionString: process.env.DATABASE_URL,',
        `connectionString: ${JSON.stringify(postgresUrl)}, schema: ${JSON.stringify(schema)},`,
      )
      .replace(
        'encryptionKey: process.env.SWITCHBOARD_STORE_KEY,',
        "encryptionKey: 'a passphrase for the readme test',",
      )
      .replace(npxServerEverything, localServerEverything())
      // Waits for the change to be heard before stopping, as a long-running gateway would.
      .replace('stop();', 'await (globalThis as { changeHeard?: Promise<unknown> }).changeHeard;\nstop();');
    expect(runnable).not.toContain('npx');
    expect(runnable).not.toContain('process.env');
    const lines: string[] = [];
    const printed = createEventLog<string>('lines the snippet printed');
    const changeHeard = printed.find((line) => line.startsWith('catalogue changed:'));
    changeHeard.catch(() => {}); // the snippet awaits it; a failing snippet leaves it unawaited
    (globalThis as { changeHeard?: Promise<unknown> }).changeHeard = changeHeard;
    await runSnippet(runnable, { nextTo: import.meta.url, lines, onLine: printed.push });
    expect(lines).toContain('catalogue changed: everything tools');
    expect(lines.at(-1)).toBe('1');
  });
});

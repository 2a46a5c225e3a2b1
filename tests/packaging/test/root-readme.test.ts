// The root README's "Use it in your agent" program runs as written (server-everything from
// node_modules instead of npx) and prints what its comments say.
import {
  localServerEverything,
  npxServerEverything,
  readmeSnippet,
  runSnippet,
} from '@switchboard/test-helpers';
import { expect, it } from 'vitest';

const readme = new URL('../../../README.md', import.meta.url);

it('the "Use it in your agent" program connects, lists, converts and calls', async () => {
  const snippet = readmeSnippet(readme, '## Use it in your agent');
  expect(snippet).toBeDefined();
  expect((snippet as string).split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(15);
  const runnable = (snippet as string).replace(npxServerEverything, localServerEverything());
  expect(runnable).not.toContain('npx');
  const lines = await runSnippet(runnable, { nextTo: import.meta.url });
  expect(lines[0]).toBe('13');
  expect(lines[1]).toBe("[ 'message' ]");
  expect(lines[2]).toBe("{ status: 'success', message: 'Echo: hello' }");
}, 60_000);

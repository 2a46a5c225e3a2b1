import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readmeSnippet, writeSnippet } from '@switchboard/test-helpers';
import { afterEach, expect, test } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

test('the README snippet runs and serves its tool', async () => {
  const snippet = readmeSnippet(new URL('../README.md', import.meta.url));
  expect(snippet).toBeDefined();
  using snippetFile = writeSnippet(
    (snippet as string).replace("'@switchboard/server'", "'../src/index.js'"),
    import.meta.url,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', snippetFile.path], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => child.kill());
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/MCP endpoint: (\S+)/);
      if (match) resolve(match[1] as string);
    });
    child.on('exit', (code) => reject(new Error(`snippet exited with ${code}: ${output}`)));
  });
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'forecast', arguments: { city: 'Oslo' } },
    }),
  });
  expect(await response.json()).toMatchObject({
    id: 1,
    result: { content: [{ type: 'text', text: 'Sunny in Oslo' }] },
  });
}, 60_000);

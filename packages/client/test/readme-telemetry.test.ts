// The README's tracing example runs as written (with the server started from node_modules instead of npx).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { afterEach, expect, it, vi } from 'vitest';
import { serverScript } from './helpers/servers.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const snippetFile = fileURLToPath(new URL(`./readme-telemetry-${process.pid}.tmp.ts`, import.meta.url));

afterEach(() => {
  rmSync(snippetFile, { force: true });
  vi.restoreAllMocks();
});

it("the tracing example records the connect's tools/list and a tools/call span, and prints what its comments say", async () => {
  const snippet = /## Tracing and metrics\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(snippet).toBeDefined();
  const runnable = (snippet as string)
    .replace("from '@switchboard/client'", "from '../src/index.js'")
    .replace(
      "command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything']",
      `command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverScript('server-everything'))}, 'stdio']`,
    );
  expect(runnable).not.toContain('npx');
  writeFileSync(snippetFile, runnable);
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(format(...args));
  });
  await import(snippetFile);
  expect(lines).toEqual(['tools/list, tools/call echo', 'tools/call pipe']);
}, 30_000);

// The README's tracing example runs as written (with the server started from node_modules instead of npx).
import {
  localServerEverything,
  npxServerEverything,
  readmeSnippet,
  runSnippet,
} from '@switchboard/test-helpers';
import { expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);

it("the tracing example records the connect's tools/list and a tools/call span, and prints what its comments say", async () => {
  const snippet = readmeSnippet(readme, '## Tracing and metrics');
  expect(snippet).toBeDefined();
  const runnable = (snippet as string)
    .replace("from '@switchboard/client'", "from '../src/index.js'")
    .replace(npxServerEverything, localServerEverything());
  expect(runnable).not.toContain('npx');
  const lines = await runSnippet(runnable, { nextTo: import.meta.url });
  // server-everything registers more tools once initialized and announces them with list_changed;
  // when that lands while the connect's listing is in flight, the client lists again (the first
  // answer may predate them), so a second `tools/list` span, and the trust review of what it
  // brought, may come before the call.
  const [spanNames, ...rest] = lines;
  expect(spanNames).toMatch(
    /^tools\/list, trust review everything(, tools\/list(, trust review everything)?)?, tools\/call echo$/,
  );
  expect(rest).toEqual(['tools/call pipe']);
}, 30_000);

import { describe, expect, it } from 'vitest';
import { anyFreePort, findQuickStart, localServers, parseJsonRpcAnswer } from '../src/readme-quick-start.js';

describe('findQuickStart', () => {
  it('takes the first ts block under "Quick start", else the first of the README', () => {
    const readme =
      '# x\n```ts\nfirst();\n```\n## Quick start\nText.\n```sh\nnpm i x\n```\n```ts\nquick();\n```\n';
    expect(findQuickStart(readme)).toEqual({ heading: '## Quick start', source: 'quick();\n' });
    expect(findQuickStart('# y\n```ts\nonly();\n```\n')).toEqual({ heading: undefined, source: 'only();\n' });
    expect(findQuickStart('# z\nno code\n')).toBeUndefined();
  });
});

describe('localServers', () => {
  it('starts the npx servers from node_modules with the given node', () => {
    const source =
      "{ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }\n" +
      "{ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] }";
    const local = localServers(source, '/opt/node');
    expect(local).not.toContain('npx');
    expect(local).toMatch(/command: "\/opt\/node", args: \[".*server-everything.*index\.js", 'stdio'\]/);
    expect(local).toMatch(/command: "\/opt\/node", args: \[".*server-filesystem.*index\.js", '\.'\]/);
  });
});

describe('anyFreePort', () => {
  it('lets each run listen on a port of its own', () => {
    expect(anyFreePort("serve(g, { transport: { type: 'http', port: 8080 } })")).toBe(
      "serve(g, { transport: { type: 'http', port: 0 } })",
    );
    expect(anyFreePort('const report = 8080;')).toBe('const report = 8080;');
  });
});

describe('parseJsonRpcAnswer', () => {
  it('reads a JSON body and the last data line of an event stream', () => {
    expect(parseJsonRpcAnswer('{"id":1}')).toEqual({ id: 1 });
    expect(parseJsonRpcAnswer('event: message\ndata: {"id":2}\n\n')).toEqual({ id: 2 });
  });
});

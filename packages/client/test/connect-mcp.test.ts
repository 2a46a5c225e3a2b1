import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolRegistry } from '@switchboard/core';
import {
  createEventLog,
  createTemporaryDirectories,
  everythingStdio,
  filesystemStdio,
  memoryStdio,
  serverScript,
} from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../src/index.js';
import { fixture, processesWithEnvironment, uniqueMarker, waitFor } from './helpers/servers.js';

const text = (result: unknown): string => JSON.stringify(result);

describe('connectMcp', () => {
  const open: McpConnection[] = [];
  const temporary = createTemporaryDirectories();
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    temporary.removeAll();
  });

  it('connects everything, filesystem and memory in parallel and runs their tools namespaced', async () => {
    const dir = temporary.make('sb-client-fs-');
    writeFileSync(join(dir, 'hello.txt'), 'hello from the temp dir');
    const connection = await connectMcp(
      {
        everything: everythingStdio(),
        files: filesystemStdio(dir),
        memory: memoryStdio(join(dir, 'memory.jsonl')),
      },
      { approval: 'never' },
    );
    open.push(connection);
    expect(Object.keys(connection.tools)).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__files__read_text_file',
        'mcp__memory__create_entities',
      ]),
    );
    expect(connection.registry.resolve('mcp__files__read_text_file')).toEqual({
      server: 'files',
      originalName: 'read_text_file',
    });
    const echo = await connection.callTool('mcp__everything__echo', { message: 'namespaced' });
    expect(text(echo)).toContain('namespaced');
    const file = await connection.tools.mcp__files__read_text_file!.execute!({
      path: join(dir, 'hello.txt'),
    });
    expect(text(file)).toContain('hello from the temp dir');
    await connection.callTool('mcp__memory__create_entities', {
      entities: [{ name: 'Switchboard', entityType: 'project', observations: ['connects MCP servers'] }],
    });
    const graph = await connection.callTool('mcp__memory__read_graph', {});
    expect(text(graph)).toContain('connects MCP servers');

    const status = connection.status();
    expect(status.everything).toMatchObject({
      state: 'connected',
      transport: 'stdio',
      circuit: 'closed',
      respawns: 0,
    });
    expect(status.files?.toolCount).toBeGreaterThan(5);
    const metrics = connection.metrics();
    expect(metrics.servers.memory).toMatchObject({ calls: 2, errors: 0 });
    expect(metrics.tools.everything?.echo?.calls).toBe(1);
    expect(metrics.tools.everything?.echo?.p50Ms).toBeGreaterThan(0);
  });

  it('gives two servers with the same tool name two distinct tools, each reaching its own server', async () => {
    const registry = createToolRegistry();
    const counter = (file: string) => ({
      command: process.execPath,
      args: [fixture('counter-server.mjs')],
      env: { COUNTER_FILE: file },
    });
    const dir = temporary.make('sb-client-twins-');
    const connection = await connectMcp(
      { alpha: counter(join(dir, 'a.log')), beta: { ...counter(join(dir, 'b.log')), prefix: 'b' } },
      { registry, approval: 'never' },
    );
    open.push(connection);
    expect(connection.registry).toBe(registry);
    expect(connection.tools.mcp__alpha__record).toBeDefined();
    expect(connection.tools.mcp__b__record).toBeDefined();
    await connection.callTool('mcp__alpha__record', { value: 'to-alpha' });
    await connection.callTool('mcp__b__record', { value: 'to-beta' });
    expect(readFileSync(join(dir, 'a.log'), 'utf8')).toContain('record:to-alpha');
    expect(readFileSync(join(dir, 'b.log'), 'utf8')).toContain('record:to-beta');
    expect(readFileSync(join(dir, 'a.log'), 'utf8')).not.toContain('to-beta');
  });

  it('applies the approval policy through the approve callback', async () => {
    const dir = temporary.make('sb-client-approve-');
    const log = join(dir, 'runs.log');
    const asked: string[] = [];
    let answer = false;
    const connection = await connectMcp(
      {
        counter: {
          command: process.execPath,
          args: [fixture('counter-server.mjs')],
          env: { COUNTER_FILE: log },
        },
      },
      {
        approve: ({ name, reason }) => {
          asked.push(`${name}: ${reason}`);
          return answer;
        },
      },
    );
    open.push(connection);
    // Read-only tools run without asking under the default 'annotations' policy.
    expect(text(await connection.callTool('mcp__counter__lookup', { value: 'x' }))).toContain('found x');
    expect(asked).toEqual([]);
    // A write asks; a "no" means it never reaches the server.
    await expect(connection.callTool('mcp__counter__record', { value: 'refused' })).rejects.toMatchObject({
      code: 'APPROVAL_DENIED',
    });
    expect(asked).toHaveLength(1);
    expect(readFileSync(log, 'utf8')).not.toContain('refused');
    answer = true;
    expect(text(await connection.callTool('mcp__counter__record', { value: 'granted' }))).toContain(
      'recorded granted',
    );

    const strict = await connectMcp({
      counter: {
        command: process.execPath,
        args: [fixture('counter-server.mjs')],
        env: { COUNTER_FILE: log },
      },
    });
    open.push(strict);
    await expect(strict.callTool('mcp__counter__record', { value: 'nobody-asked' })).rejects.toMatchObject({
      code: 'APPROVAL_REQUIRED',
      message: expect.stringContaining('no approve callback'),
    });
  });

  it('refreshes tools when the server sends tools/list_changed', async () => {
    const refreshed = createEventLog<string[]>('tool lists the connection refreshed');
    const connection = await connectMcp(
      { counter: { command: process.execPath, args: [fixture('counter-server.mjs')] } },
      {
        approval: 'never',
        listChangedDebounceMs: 20,
        // A new tool of a known server is quarantined by default (tool trust, tested in trust/): off here.
        trust: { pin: 'off' },
        onToolsChanged: (_server, tools) => refreshed.push(tools.map((tool) => tool.name)),
      },
    );
    open.push(connection);
    expect(connection.tools.mcp__counter__fresh_tool).toBeUndefined();
    await connection.callTool('mcp__counter__add_tool', { name: 'fresh_tool' });
    await refreshed.find((names) => names.includes('mcp__counter__fresh_tool'), { what: 'the new tool' });
    expect(connection.tools.mcp__counter__fresh_tool).toBeDefined();
    expect(text(await connection.callTool('mcp__counter__fresh_tool', {}))).toContain('fresh_tool ran');
  });

  it('leaves no server process behind after close()', async () => {
    const marker = uniqueMarker();
    const connection = await connectMcp({
      one: everythingStdio({ env: { SB_MARKER: marker } }),
      two: { command: process.execPath, args: [serverScript('server-memory')], env: { SB_MARKER: marker } },
    });
    expect(processesWithEnvironment(marker)).toHaveLength(2);
    await connection.close();
    await waitFor(() => processesWithEnvironment(marker).length === 0, 15_000, 'server processes to exit');
    expect(connection.registry.size).toBe(0);
    expect(Object.keys(connection.tools)).toHaveLength(0);
  });

  it('accepts a loaded config shape and skips disabled servers', async () => {
    const connection = await connectMcp(
      {
        mcpServers: {
          everything: everythingStdio(),
          off: { command: 'definitely-not-a-command', enabled: false },
        },
      },
      { approval: 'never' },
    );
    open.push(connection);
    expect(connection.servers).toEqual(['everything']);
    expect(connection.tools.mcp__everything__echo).toBeDefined();
  });

  it('validates arguments before they reach the server, wraps results, or returns them raw on request', async () => {
    const dir = temporary.make('sb-client-validate-');
    const log = join(dir, 'runs.log');
    const entry = {
      command: process.execPath,
      args: [fixture('counter-server.mjs')],
      env: { COUNTER_FILE: log },
    };
    const connection = await connectMcp({ counter: entry }, { approval: 'never' });
    open.push(connection);
    const error = await connection.callTool('mcp__counter__record', { value: 42 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((error as Error).message).toContain('mcp__counter__record');
    expect(existsSync(log) ? readFileSync(log, 'utf8').trim() : '').toBe('');
    const wrapped = await connection.callTool('mcp__counter__record', { value: 'ok' });
    expect(wrapped).toMatchObject({ status: 'success', message: expect.stringContaining('recorded ok') });

    const raw = await connectMcp({ counter: entry }, { approval: 'never', rawResults: true });
    open.push(raw);
    const result = await raw.callTool('mcp__counter__record', { value: 'raw' });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'recorded raw' }] });
  });
});

import { describe, expect, it } from 'vitest';
import type { Logger, RegisteredTool, ToolRegistryEvent } from '../src/index.js';
import { createToolRegistry, SwitchboardError } from '../src/index.js';

const schema = { type: 'object', properties: { q: { type: 'string' } } };

function tool(name: string, extra: Record<string, unknown> = {}) {
  return { name, description: `does ${name}`, inputSchema: schema, ...extra };
}

function recorder() {
  const events: ToolRegistryEvent[] = [];
  return { events, listener: (event: ToolRegistryEvent) => events.push(event) };
}

function capturingLogger() {
  const lines: Array<{ level: string; args: unknown[] }> = [];
  const method =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, args });
  const logger = {
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
  };
  return { lines, logger: logger as unknown as Logger };
}

describe('createToolRegistry', () => {
  it('registers, looks up by public and original name, and resolves back', () => {
    const registry = createToolRegistry();
    const registered = registry.register({ server: 'github', ...tool('create_issue') });
    expect(registered.name).toBe('mcp__github__create_issue');
    expect(registered.originalName).toBe('create_issue');
    expect(registry.get('mcp__github__create_issue')).toBe(registered);
    expect(registry.getByOriginal('github', 'create_issue')).toBe(registered);
    expect(registry.resolve('mcp__github__create_issue')).toEqual({
      server: 'github',
      originalName: 'create_issue',
    });
    expect(registry.has('mcp__github__create_issue')).toBe(true);
    expect(registry.has('create_issue')).toBe(false);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.resolve('nope')).toBeUndefined();
    expect(registry.size).toBe(1);
  });

  it('groups tools by server', () => {
    const registry = createToolRegistry();
    registry.registerMany('fs', [tool('read'), tool('write')]);
    registry.registerMany('memory', [tool('read_graph')]);
    expect(registry.servers()).toEqual(['fs', 'memory']);
    expect(registry.list({ server: 'fs' }).map((t) => t.originalName)).toEqual(['read', 'write']);
    expect(registry.list({ server: 'none' })).toEqual([]);
    expect(registry.list()).toHaveLength(3);
    expect(registry.unregisterServer('fs')).toBe(2);
    expect(registry.servers()).toEqual(['memory']);
    expect(registry.unregisterServer('fs')).toBe(0);
    expect(registry.size).toBe(1);
  });

  it('uses the naming options and per-server prefixes', () => {
    const registry = createToolRegistry({
      naming: { style: 'mcp_{server}_{tool}', prefixes: { 'github-enterprise': 'gh' } },
    });
    expect(registry.register({ server: 'github-enterprise', ...tool('list') }).name).toBe('mcp_gh_list');
    expect(registry.register({ server: 'other', prefix: 'o', ...tool('list') }).name).toBe('mcp_o_list');
    const dotted = createToolRegistry({ naming: { style: '{prefix}.{tool}', allowDots: true } });
    expect(dotted.register({ server: 'agent', ...tool('run') }).name).toBe('agent.run');
  });

  it('emits added, updated only on real change, and removed', () => {
    const registry = createToolRegistry();
    const { events, listener } = recorder();
    registry.subscribe(listener);
    const first = registry.register({ server: 's', ...tool('a') });
    // Same content, keys in a different order and a fresh execute closure: not a change.
    registry.register({
      inputSchema: { properties: { q: { type: 'string' } }, type: 'object' },
      description: 'does a',
      name: 'a',
      server: 's',
      execute: async () => 1,
    });
    expect(events.map((e) => e.type)).toEqual(['added']);
    expect(registry.get(first.name)?.execute).toBeTypeOf('function');
    const updated = registry.register({ server: 's', ...tool('a', { description: 'changed' }) });
    expect(events.map((e) => e.type)).toEqual(['added', 'updated']);
    const last = events[1] as Extract<ToolRegistryEvent, { type: 'updated' }>;
    expect(last.previous.description).toBe('does a');
    expect(last.tool).toBe(updated);
    expect(updated.name).toBe(first.name);
    registry.register({
      server: 's',
      ...tool('a', { description: 'changed', annotations: { readOnlyHint: true } }),
    });
    expect(events.map((e) => e.type)).toEqual(['added', 'updated', 'updated']);
    expect(registry.unregister(first.name)).toBe(true);
    expect(registry.unregister(first.name)).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['added', 'updated', 'updated', 'removed']);
    expect(registry.size).toBe(0);
    expect(registry.servers()).toEqual([]);
  });

  it('replaceServer: a re-listing of the same definitions is silent, however deep a later change', () => {
    const registry = createToolRegistry();
    const schema = () => ({
      type: 'object',
      properties: { q: { type: 'string', description: 'query', enum: ['a', 'b'] } },
    });
    const listing = () => [{ name: 'find', description: 'finds', inputSchema: schema() }];
    registry.replaceServer('s', listing());
    const { events, listener } = recorder();
    registry.subscribe(listener);
    registry.replaceServer('s', listing());
    registry.replaceServer('s', [
      {
        name: 'find',
        description: 'finds',
        inputSchema: { properties: schema().properties, type: 'object' },
      },
    ]);
    expect(events).toEqual([]);
    const deeper = listing();
    const [found] = deeper;
    if (found === undefined) throw new Error('the listing has its tool');
    found.inputSchema.properties.q.enum.push('c');
    registry.replaceServer('s', deeper);
    registry.replaceServer(
      's',
      deeper.map((entry) => structuredClone(entry)),
    );
    registry.replaceServer('s', listing());
    expect(events.map((event) => event.type)).toEqual(['updated', 'updated']);
    expect(registry.getByOriginal('s', 'find')?.inputSchema).toEqual(schema());
  });

  it('replaceServer adds, updates, removes and leaves unchanged tools silent', () => {
    const registry = createToolRegistry();
    registry.registerMany('s', [tool('keep'), tool('change'), tool('drop')]);
    registry.register({ server: 'other', ...tool('keep') });
    const { events, listener } = recorder();
    registry.subscribe(listener);
    const result = registry.replaceServer('s', [
      tool('keep'),
      tool('change', { description: 'new' }),
      tool('fresh'),
    ]);
    expect(result.added.map((t) => t.originalName)).toEqual(['fresh']);
    expect(result.updated.map((t) => t.originalName)).toEqual(['change']);
    expect(result.removed.map((t) => t.originalName)).toEqual(['drop']);
    expect(events.map((e) => `${e.type}:${e.tool.originalName}`)).toEqual([
      'removed:drop',
      'updated:change',
      'added:fresh',
    ]);
    expect(
      registry
        .list({ server: 's' })
        .map((t) => t.originalName)
        .sort(),
    ).toEqual(['change', 'fresh', 'keep']);
    expect(registry.getByOriginal('other', 'keep')).toBeDefined();
    expect(registry.replaceServer('s', []).removed).toHaveLength(3);
    expect(registry.servers()).toEqual(['other']);
  });

  it('reports a rename (new prefix) as removed plus added', () => {
    const registry = createToolRegistry();
    registry.register({ server: 's', ...tool('a') });
    const { events, listener } = recorder();
    registry.subscribe(listener);
    const renamed = registry.register({ server: 's', prefix: 'p', ...tool('a') });
    expect(renamed.name).toBe('mcp__p__a');
    expect(events.map((e) => `${e.type}:${e.tool.name}`)).toEqual(['removed:mcp__s__a', 'added:mcp__p__a']);
    expect(registry.has('mcp__s__a')).toBe(false);
    expect(registry.size).toBe(1);
  });

  it('separates names that collide after sanitising; the later one gets a stable hash suffix', () => {
    const registry = createToolRegistry();
    const first = registry.register({ server: 'my.server', ...tool('get') });
    const second = registry.register({ server: 'my server', ...tool('get') });
    expect(first.name).toBe('mcp__my_server__get');
    expect(second.name).toMatch(/^mcp__my_server__get_[0-9a-z]{6}$/);
    expect(registry.resolve(first.name)).toEqual({ server: 'my.server', originalName: 'get' });
    expect(registry.resolve(second.name)).toEqual({ server: 'my server', originalName: 'get' });
    // Stable: the same pair gets the same suffix in another registry with the same history.
    const again = createToolRegistry();
    again.register({ server: 'my.server', ...tool('get') });
    expect(again.register({ server: 'my server', ...tool('get') }).name).toBe(second.name);
    // A collided tool keeps its name across updates.
    expect(registry.register({ server: 'my server', ...tool('get', { description: 'x' }) }).name).toBe(
      second.name,
    );
  });

  it('separates names that collide after truncation and stays within the length limit', () => {
    const registry = createToolRegistry();
    const head = 'x'.repeat(70);
    // Different raw names, same sanitised name, both truncated: hashes of raw names differ already.
    const a = registry.register({ server: 's', ...tool(`${head}.a`) });
    const b = registry.register({ server: 's', ...tool(`${head}_a`) });
    expect(a.name).not.toBe(b.name);
    // Identical raw names from different servers that sanitise alike collide for real.
    const c = registry.register({ server: 't.u', ...tool(head) });
    const d = registry.register({ server: 't u', ...tool(head) });
    expect(c.name).not.toBe(d.name);
    for (const t of [a, b, c, d]) {
      expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(registry.resolve(t.name)).toEqual({ server: t.server, originalName: t.originalName });
    }
  });

  it('handles 10,000 tools with every name unique, valid and reversible', () => {
    const registry = createToolRegistry();
    const { events, listener } = recorder();
    registry.subscribe(listener);
    for (let server = 0; server < 100; server++) {
      registry.registerMany(
        // Servers whose names sanitise alike force collisions at scale.
        server % 2 === 0 ? `srv.${server >> 1}` : `srv ${server >> 1}`,
        Array.from({ length: 100 }, (_, index) => tool(`tool_${index}_${'long'.repeat(index % 20)}`)),
      );
    }
    expect(registry.size).toBe(10_000);
    expect(events).toHaveLength(10_000);
    const names = new Set<string>();
    for (const t of registry.list()) {
      expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      names.add(t.name);
      expect(registry.resolve(t.name)).toEqual({ server: t.server, originalName: t.originalName });
      expect(registry.getByOriginal(t.server, t.originalName)).toBe(t);
    }
    expect(names.size).toBe(10_000);
    expect(registry.servers()).toHaveLength(100);
    expect(registry.list({ server: 'srv 7' })).toHaveLength(100);
  });

  it('keeps working when a listener throws, and unsubscribes', () => {
    const { lines, logger } = capturingLogger();
    const registry = createToolRegistry({ logger });
    const seen: string[] = [];
    registry.subscribe(() => {
      throw new Error('index broke');
    });
    const unsubscribe = registry.subscribe((event) => seen.push(event.tool.name));
    registry.register({ server: 's', ...tool('a') });
    expect(seen).toEqual(['mcp__s__a']);
    expect(registry.size).toBe(1);
    expect(
      lines.some((line) => line.level === 'error' && JSON.stringify(line.args).includes('index broke')),
    ).toBe(true);
    unsubscribe();
    unsubscribe();
    registry.register({ server: 's', ...tool('b') });
    expect(seen).toEqual(['mcp__s__a']);
  });

  it('delivers an event to every listener even when one unsubscribes during delivery', () => {
    const registry = createToolRegistry();
    const seen: string[] = [];
    const unsubscribeFirst = registry.subscribe(() => {
      seen.push('first');
      unsubscribeFirst();
    });
    registry.subscribe(() => seen.push('second'));
    registry.register({ server: 's', ...tool('a') });
    registry.register({ server: 's', ...tool('b') });
    expect(seen).toEqual(['first', 'second', 'second']);
  });

  it('unregisterServer reports every removed tool, and other servers keep theirs', () => {
    const registry = createToolRegistry();
    registry.registerMany('a', [tool('x'), tool('y')]);
    registry.registerMany('b', [tool('x')]);
    const { events, listener } = recorder();
    registry.subscribe(listener);
    expect(registry.unregisterServer('a')).toBe(2);
    expect(events.map((e) => `${e.type}:${e.tool.name}`)).toEqual(['removed:mcp__a__x', 'removed:mcp__a__y']);
    expect(registry.get('mcp__b__x')?.server).toBe('b');
    expect(registry.getByOriginal('a', 'x')).toBeUndefined();
  });

  it('rejects bad tools with clear errors and changes nothing', () => {
    const registry = createToolRegistry();
    registry.register({ server: 's', ...tool('a') });
    expect(() => registry.register({ server: 's', name: '', description: '', inputSchema: schema })).toThrow(
      /has no name/,
    );
    expect(() => registry.register({ server: '', ...tool('x') })).toThrow(/has no server/);
    try {
      registry.registerMany('s', [
        tool('ok'),
        { name: 'bad', description: 'x', inputSchema: 'nope' as never },
      ]);
      expect.unreachable();
    } catch (error) {
      expect(SwitchboardError.hasCode(error, 'INVALID_SCHEMA')).toBe(true);
      expect((error as SwitchboardError).message).toMatch(
        /tool "bad" of server "s" has no inputSchema object/,
      );
      expect((error as SwitchboardError).context).toMatchObject({ server: 's', tool: 'bad', index: 1 });
    }
    // The batch was validated before anything was applied.
    expect(registry.has('mcp__s__ok')).toBe(false);
    expect(registry.size).toBe(1);
  });

  it('honours explicit public names and refuses to let two tools share one', () => {
    const registry = createToolRegistry();
    const explicit = registry.register({ server: 's', publicName: 'search', ...tool('find') });
    expect(explicit.name).toBe('search');
    expect(registry.resolve('search')).toEqual({ server: 's', originalName: 'find' });
    expect(() => registry.register({ server: 't', publicName: 'search', ...tool('find') })).toThrow(
      /already used by tool "find" of server "s"/,
    );
    // A namespaced name that happens to equal an explicit one gets a suffix instead.
    registry.register({ server: 'x', publicName: 'mcp__y__z', ...tool('other') });
    expect(registry.register({ server: 'y', ...tool('z') }).name).toMatch(/^mcp__y__z_[0-9a-z]{6}$/);
  });

  it('keeps the later definition when a server lists a tool twice', () => {
    const { lines, logger } = capturingLogger();
    const registry = createToolRegistry({ logger });
    const tools: RegisteredTool[] = registry.registerMany('s', [
      tool('a'),
      tool('a', { description: 'second' }),
    ]);
    expect(tools).toHaveLength(1);
    expect(registry.get('mcp__s__a')?.description).toBe('second');
    expect(lines.some((line) => line.level === 'warn')).toBe(true);
  });
});

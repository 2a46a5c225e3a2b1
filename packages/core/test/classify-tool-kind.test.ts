import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { McpToolDefinition } from '../src/index.js';
import { classifyToolKind } from '../src/index.js';

describe('classifyToolKind', () => {
  it('trusts readOnlyHint first', () => {
    expect(classifyToolKind({ name: 'execute_command', annotations: { readOnlyHint: true } })).toBe('read');
  });

  it.each([
    ['read_text_file', 'read'],
    ['list_directory_with_sizes', 'read'],
    ['search_nodes', 'read'],
    ['get-env', 'read'],
    ['getUserProfile', 'read'],
    ['list_tags', 'read'],
    ['get_config', 'read'],
    ['write_file', 'write'],
    ['create_entities', 'write'],
    ['delete_observations', 'write'],
    ['move_file', 'write'],
    ['search_and_replace', 'write'],
    ['run_query', 'exec'],
    ['execute_command', 'exec'],
    ['shell', 'exec'],
    ['bash', 'exec'],
    ['evalJavaScript', 'exec'],
    ['grant_access', 'admin'],
    ['deploy_service', 'admin'],
    ['update_user_role', 'admin'],
    ['create_user', 'admin'],
    ['permissions', 'admin'],
  ] as const)('%s → %s', (name, kind) => {
    expect(classifyToolKind({ name })).toBe(kind);
  });

  it('prefers originalName over the public name', () => {
    expect(classifyToolKind({ name: 'mcp__runner__list_jobs', originalName: 'list_jobs' })).toBe('read');
  });

  it('falls back to the description, first action word first', () => {
    expect(
      classifyToolKind({
        name: 'directory_tree_x',
        description:
          'Get a recursive tree view of files and directories. Fails if the path cannot be deleted.',
      }),
    ).toBe('read');
    expect(classifyToolKind({ name: 'gzip', description: 'Compresses and saves the file to disk' })).toBe(
      'write',
    );
    expect(classifyToolKind({ name: 'sandbox', description: 'Executes Python in a sandbox' })).toBe('exec');
  });

  it('raises a read verdict to write when annotations say the tool changes things', () => {
    expect(classifyToolKind({ name: 'fetch_and_cache', annotations: { readOnlyHint: false } })).toBe('write');
    expect(classifyToolKind({ name: 'get_and_clear', annotations: { destructiveHint: true } })).toBe('write');
  });

  it('defaults to write when nothing is known (MCP assumes not read-only)', () => {
    expect(classifyToolKind({ name: 'frobnicate' })).toBe('write');
  });

  it('accepts extra keywords', () => {
    expect(classifyToolKind({ name: 'frobnicate' }, { keywords: { read: ['frobnicate'] } })).toBe('read');
    expect(classifyToolKind({ name: 'frobnicate' })).toBe('write');
  });
});

describe('classifyToolKind on the official servers', () => {
  const load = (name: string): McpToolDefinition[] =>
    JSON.parse(readFileSync(fileURLToPath(new URL(`./fixtures/${name}.json`, import.meta.url)), 'utf8'))
      .tools;

  it.each(['server-filesystem', 'server-memory', 'server-everything'])(
    '%s: read exactly when the server says read-only',
    (server) => {
      for (const tool of load(server)) {
        const kind = classifyToolKind(tool);
        expect([tool.name, kind === 'read']).toEqual([tool.name, tool.annotations?.readOnlyHint === true]);
      }
    },
  );

  it('server-filesystem: names and descriptions alone agree with the annotations', () => {
    for (const tool of load('server-filesystem')) {
      const kind = classifyToolKind({ name: tool.name, description: tool.description ?? '' });
      expect([tool.name, kind]).toEqual([tool.name, tool.annotations?.readOnlyHint ? 'read' : 'write']);
    }
  });
});

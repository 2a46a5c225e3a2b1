import { describe, expect, it } from 'vitest';
import { createToolName, SwitchboardError, sanitizeToolName } from '../src/index.js';

const providerPattern = /^[a-zA-Z0-9_-]{1,64}$/;

describe('createToolName', () => {
  it('uses mcp__{server}__{tool} by default', () => {
    expect(createToolName({ server: 'github', tool: 'create_issue' })).toBe('mcp__github__create_issue');
  });

  it('supports every built-in style', () => {
    const parts = { server: 'github', tool: 'create_issue' };
    expect(createToolName(parts, { style: 'mcp_{server}_{tool}' })).toBe('mcp_github_create_issue');
    expect(createToolName(parts, { style: '{server}__{tool}' })).toBe('github__create_issue');
    expect(createToolName(parts, { style: '{prefix}.{tool}' })).toBe('github_create_issue');
    expect(createToolName(parts, { style: '{prefix}.{tool}', allowDots: true })).toBe('github.create_issue');
  });

  it('accepts a style function and still sanitises its result', () => {
    const name = createToolName(
      { server: 'fs', tool: 'read file' },
      { style: ({ server, tool }) => `${tool}@${server}` },
    );
    expect(name).toBe('read_file_fs');
  });

  it('replaces the server by a prefix (per tool or per server map)', () => {
    expect(createToolName({ server: 'github-enterprise', tool: 'x', prefix: 'gh' })).toBe('mcp__gh__x');
    expect(
      createToolName(
        { server: 'github-enterprise', tool: 'x' },
        { prefixes: { 'github-enterprise': 'ghe' } },
      ),
    ).toBe('mcp__ghe__x');
    expect(
      createToolName(
        { server: 'github-enterprise', tool: 'x', prefix: 'gh' },
        { prefixes: { 'github-enterprise': 'ghe' } },
      ),
    ).toBe('mcp__gh__x');
    expect(
      createToolName({ server: 's', tool: 'x', prefix: 'p' }, { style: '{prefix}.{tool}', allowDots: true }),
    ).toBe('p.x');
  });

  it('sanitises to the provider charset', () => {
    const name = createToolName({ server: 'my server!', tool: 'résumé/get' });
    expect(name).toBe('mcp__my_server___r_sum__get');
    expect(name).toMatch(providerPattern);
    expect(sanitizeToolName('a.b c')).toBe('a_b_c');
    expect(sanitizeToolName('a.b c', { allowDots: true })).toBe('a.b_c');
  });

  it('is deterministic', () => {
    const parts = { server: 'x'.repeat(50), tool: 'y'.repeat(50) };
    expect(createToolName(parts)).toBe(createToolName({ ...parts }));
  });

  it('truncates long names to a readable head plus a stable hash', () => {
    const long = { server: 'documentation-server', tool: `search_${'very_long_segment_'.repeat(6)}end` };
    const name = createToolName(long);
    expect(name.length).toBe(64);
    expect(name).toMatch(providerPattern);
    expect(name.startsWith('mcp__documentation-server__search_very_long')).toBe(true);
    expect(name).toMatch(/_[0-9a-z]{6}$/);
    // Two names differing only in the part that is cut off still differ.
    const other = createToolName({ ...long, tool: `${long.tool}2` });
    expect(other).not.toBe(name);
    expect(other.slice(0, 57)).toBe(name.slice(0, 57));
  });

  it('honours maxLength 128', () => {
    const parts = { server: 's', tool: 'a'.repeat(100) };
    expect(createToolName(parts)).toHaveLength(64);
    expect(createToolName(parts, { maxLength: 128 })).toBe(`mcp__s__${'a'.repeat(100)}`);
    expect(createToolName({ server: 's', tool: 'a'.repeat(200) }, { maxLength: 128 })).toHaveLength(128);
  });

  it('rejects bad input with clear errors', () => {
    expect(() => createToolName({ server: '', tool: 'x' })).toThrow(/server name must be a non-empty string/);
    expect(() => createToolName({ server: 's', tool: '' })).toThrow(/tool name must be a non-empty string/);
    expect(() => createToolName({ server: 's', tool: 'x' }, { maxLength: 3 })).toThrow(
      /maxLength must be an integer/,
    );
    expect(() => createToolName({ server: 's', tool: 'x' }, { style: () => '' })).toThrow(/empty name/);
    try {
      createToolName({ server: 's', tool: 'x' }, { style: 'nope' as never });
      expect.unreachable();
    } catch (error) {
      expect(SwitchboardError.hasCode(error, 'INVALID_ARGUMENT')).toBe(true);
      expect((error as Error).message).toMatch(/unknown style "nope"/);
    }
  });
});

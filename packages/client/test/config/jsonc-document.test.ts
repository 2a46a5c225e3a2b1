import { SwitchboardError } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { findNode, formatJsonPath, parseJsonc, positionAt } from '../../src/config/jsonc-document.js';

function parseError(text: string): SwitchboardError {
  try {
    parseJsonc(text, '/tmp/mcp.json');
  } catch (error) {
    if (SwitchboardError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a parse error');
}

describe('parseJsonc', () => {
  it('accepts comments, trailing commas and a BOM', () => {
    const text =
      '\ufeff{\n  // servers\n  "mcpServers": { /* none yet */ "a": { "args": [1, "x",], }, },\n}\n';
    expect(parseJsonc(text, 'f').value).toEqual({ mcpServers: { a: { args: [1, 'x'] } } });
  });

  it('parses escapes, numbers and literals like JSON.parse', () => {
    const text = '{"s": "a\\"b\\\\c\\u00e9", "n": -1.5e3, "t": true, "f": false, "z": null, "e": []}';
    expect(parseJsonc(text, 'f').value).toEqual(JSON.parse(text));
  });

  it('keeps a "__proto__" key as data, not as the prototype', () => {
    const value = parseJsonc('{"__proto__": {"polluted": true}}', 'f').value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports a missing comma with file, line and column', () => {
    const error = parseError('{\n  "mcpServers": {\n    "a": {"command": "x"}\n    "b": {}\n  }\n}');
    expect(error.code).toBe('CONFIG_INVALID_JSON');
    expect(error.message).toContain('/tmp/mcp.json:4:5');
    expect(error.message).toMatch(/comma/);
    expect(error.context).toMatchObject({ file: '/tmp/mcp.json', line: 4, column: 5 });
  });

  it('reports unterminated strings and comments, single quotes, empty files and trailing garbage', () => {
    expect(parseError('{"a": "abc\n}').message).toContain('unterminated string');
    expect(parseError('{"a": 1 /* x').message).toContain('unterminated /* comment');
    expect(parseError("{'a': 1}").message).toContain('double quotes');
    expect(parseError('  \n').message).toContain('empty');
    expect(parseError('{} x').message).toContain('1:4');
  });

  it('never quotes the content of a broken string (it may be a secret)', () => {
    const error = parseError('{"token": "sk-secret-\\q"}');
    expect(error.message).toContain('escape');
    expect(error.message).not.toContain('sk-secret');
  });

  it('locates nodes by JSON path', () => {
    const text = '{\n  "mcpServers": {\n    "github": { "args": ["a", "b", {}] }\n  }\n}';
    const document = parseJsonc(text, 'f');
    const node = findNode(document.root, ['mcpServers', 'github', 'args', 2]);
    expect(node.type).toBe('object');
    expect(positionAt(text, node.start)).toEqual({ line: 3, column: 36 });
    expect(formatJsonPath(['mcpServers', 'github', 'args', 2])).toBe('mcpServers.github.args[2]');
    expect(formatJsonPath(['mcpServers', 'my server', 'env', 'A'])).toBe('mcpServers["my server"].env.A');
  });
});

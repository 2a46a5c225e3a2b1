import { describe, expect, it } from 'vitest';
import { createToolFilter, SwitchboardError } from '../src/index.js';

describe('createToolFilter', () => {
  it('is undefined when nothing is filtered, so callers skip the work', () => {
    expect(createToolFilter({})).toBeUndefined();
  });

  it('keeps includeTools globs and drops excludeTools globs, exclusion winning', () => {
    const keep = createToolFilter({ includeTools: ['read_*', 'search'], excludeTools: ['read_secret*'] });
    expect(keep?.('read_file')).toBe(true);
    expect(keep?.('search')).toBe(true);
    expect(keep?.('searcher')).toBe(false);
    expect(keep?.('write_file')).toBe(false);
    expect(keep?.('read_secret_key')).toBe(false);
  });

  it('treats glob characters other than * and ? literally', () => {
    const keep = createToolFilter({ includeTools: ['a.b?'] });
    expect(keep?.('a.bc')).toBe(true);
    expect(keep?.('axbc')).toBe(false);
  });

  it('refuses a list that is not an array of non-empty strings, naming where', () => {
    let caught: unknown;
    try {
      createToolFilter({ excludeTools: ['ok', ''] }, 'MCP server "files"');
    } catch (error) {
      caught = error;
    }
    expect(SwitchboardError.isInstance(caught) && caught.code).toBe('INVALID_ARGUMENT');
    expect((caught as Error).message).toMatch(/MCP server "files": excludeTools must be an array/);
  });
});

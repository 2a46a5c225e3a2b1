import { describe, expect, it } from 'vitest';
import { stem, tokenize } from '../src/text-tokens.js';

describe('tokenize', () => {
  it('splits on case changes, acronyms, separators and digits, lower-cases and drops stop words', () => {
    expect(tokenize('readFile HTTPServer mcp__github__createIssue v2beta')).toEqual([
      'read',
      'file',
      'http',
      'server',
      'mcp',
      'github',
      'creat',
      'issu',
      'v',
      '2',
      'beta',
    ]);
    expect(tokenize('the of and')).toEqual([]);
    expect(tokenize('the of', { keepStopWords: true })).toEqual(['the', 'of']);
  });

  it('keeps non-ASCII letters inside words', () => {
    expect(tokenize('café Ünïcode-naïve')).toEqual(['café', stem('ünïcode'), stem('naïve')]);
  });
});

describe('stem', () => {
  it('meets plural, -ed and -ing forms of one word', () => {
    expect(stem('files')).toBe(stem('file'));
    expect(stem('searching')).toBe(stem('search'));
    expect(stem('planned')).toBe('plan');
    expect(stem('created')).toBe(stem('create'));
    expect(stem('libraries')).toBe('library');
    expect(stem('address')).toBe('address');
    expect(stem('status')).toBe('status');
  });
});

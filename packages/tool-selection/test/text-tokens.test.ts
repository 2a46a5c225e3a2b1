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

  it('keeps non-ASCII letters inside words, adding a 5-letter prefix to longer ones', () => {
    expect(tokenize('café Ünïcode-naïve')).toEqual(['café', stem('ünïcode'), 'ünïco', stem('naïve')]);
    expect(tokenize('café Ünïcode-naïve', { nonLatin: 'words' })).toEqual([
      'café',
      stem('ünïcode'),
      stem('naïve'),
    ]);
  });

  it('splits scripts written without spaces into character pairs, so cut-up words still meet', () => {
    expect(tokenize('查询天气预报')).toEqual(['查询', '询天', '天气', '气预', '预报']);
    expect(tokenize('天')).toEqual(['天']);
    // ASCII inside a CJK run stays an ASCII term; kana and Hangul pair up too.
    expect(tokenize('GitHub仓库')).toEqual(['git', 'hub', '仓库']);
    expect(tokenize('メール検索')).toEqual(['メー', 'ール', 'ル検', '検索']);
    expect(tokenize('맞춤법')).toEqual(['맞춤', '춤법']);
    // Before: the whole run was one term, which a query met only if it was cut the same way.
    expect(tokenize('查询天气预报', { nonLatin: 'words' })).toEqual(['查询天气预报']);
  });

  it('lets inflected forms of other scripts meet on their first letters', () => {
    const [, prefix] = tokenize('посылки');
    expect(prefix).toBe('посыл');
    expect(tokenize('посылку')).toContain(prefix);
  });

  it('leaves ASCII text as it was', () => {
    const text = 'Search GitHub issues by label, readFile HTTPServer v2';
    expect(tokenize(text)).toEqual(tokenize(text, { nonLatin: 'words' }));
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

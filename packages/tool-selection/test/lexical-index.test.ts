import { describe, expect, it } from 'vitest';
import { createLexicalIndex, toToolDocument } from '../src/index.js';

const tools = [
  { name: 'read_text_file', description: 'Read the complete contents of a file as text.' },
  { name: 'listDirectory', description: 'Get a detailed listing of all files and directories in a path.' },
  { name: 'get-sum', description: 'Returns the sum of two numbers.' },
  { name: 'memory.create_entities', description: 'Create multiple new entities in the knowledge graph.' },
];

function build() {
  const index = createLexicalIndex();
  for (const tool of tools) index.add(tool.name, toToolDocument(tool));
  return index;
}

describe('createLexicalIndex', () => {
  it('ranks the tool sharing the rarest terms first', () => {
    const index = build();
    expect(index.search('sum of numbers')[0]?.id).toBe('get-sum');
    expect(index.search('read a text file')[0]?.id).toBe('read_text_file');
  });

  it('splits names on case, underscore, dash and dot', () => {
    const index = build();
    expect(index.search('directory')[0]?.id).toBe('listDirectory');
    expect(index.search('entities memory')[0]?.id).toBe('memory.create_entities');
  });

  it('finds a tool described in Chinese from a query that cuts its words differently', () => {
    const index = build();
    index.add('weather', toToolDocument({ name: 'get-weather', description: '获取中国国内的天气预报信息' }));
    index.add('route', toToolDocument({ name: 'directions', description: '计算出发地到目的地的距离和路线' }));
    expect(index.search('国内天气预报')[0]?.id).toBe('weather');
    expect(index.search('目的地路线')[0]?.id).toBe('route');
    // Indexed whole, a Chinese sentence is one term: the same queries find nothing.
    const whole = createLexicalIndex({ nonLatin: 'words' });
    whole.add('weather', toToolDocument({ name: 'get-weather', description: '获取中国国内的天气预报信息' }));
    expect(whole.search('国内天气预报')).toEqual([]);
  });

  it('removes and replaces documents incrementally', () => {
    const index = build();
    expect(index.remove('get-sum')).toBe(true);
    expect(index.remove('get-sum')).toBe(false);
    expect(index.search('sum numbers')).toEqual([]);
    expect(index.size).toBe(3);
    index.add(
      'read_text_file',
      toToolDocument({ name: 'read_text_file', description: 'Adds numbers together.' }),
    );
    expect(index.size).toBe(3);
    expect(index.search('numbers')[0]?.id).toBe('read_text_file');
    expect(index.search('complete contents')).toEqual([]);
  });

  it('keeps working across many removals (postings compaction)', () => {
    const index = createLexicalIndex();
    for (let round = 0; round < 3000; round++) index.add(`tool-${round}`, `alpha beta tool number ${round}`);
    for (let round = 0; round < 2990; round++) index.remove(`tool-${round}`);
    index.add('gamma', 'gamma alpha');
    expect(index.size).toBe(11);
    const hits = index.search('alpha', { limit: 20 });
    expect(hits).toHaveLength(11);
    expect(new Set(hits.map((hit) => hit.id)).has('tool-5')).toBe(false);
    expect(index.search('gamma')[0]?.id).toBe('gamma');
  });

  it('forgets the terms of removed documents and reuses their ids without mixing them up', () => {
    const index = createLexicalIndex();
    // A word of letters only per number ("qbk", "qck", ...): one term each, untouched by stemming.
    const word = (prefix: string, value: number) =>
      `${prefix}${[...value.toString(26)].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 26))).join('')}k`;
    // Unique words per document: compaction frees their term ids, and new words take them.
    for (let round = 0; round < 3000; round++) index.add(`old-${round}`, `shared ${word('q', round)}`);
    for (let round = 0; round < 3000; round++) index.remove(`old-${round}`);
    for (let round = 0; round < 50; round++) index.add(`new-${round}`, `shared ${word('w', round)}`);
    expect(index.search(word('q', 7))).toEqual([]);
    expect(index.search(word('w', 7)).map((hit) => hit.id)).toEqual(['new-7']);
    expect(index.search('shared', { limit: 100 })).toHaveLength(50);
    expect(index.size).toBe(50);
  });

  it('scores as BM25 with field weights: a name match outweighs a description match', () => {
    const index = createLexicalIndex();
    index.add('a', { name: 'invoice', title: '', description: 'billing', parameters: '', server: '' });
    index.add('b', { name: 'billing', title: '', description: 'invoice', parameters: '', server: '' });
    index.add('c', { name: 'other', title: '', description: 'unrelated text', parameters: '', server: '' });
    const [first, second] = index.search('invoice');
    expect(first?.id).toBe('a');
    expect(second?.id).toBe('b');
    // idf = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)); a and b have length 3 (name 2 + description 1), c has 4.
    const idf = Math.log(1 + 1.5 / 2.5);
    const norm = 1.5 * (1 - 0.75 + 0.75 * (3 / ((3 + 3 + 4) / 3)));
    expect(first?.score).toBeCloseTo((idf * 2 * 2.5) / (2 + norm), 6);
    expect(second?.score).toBeCloseTo((idf * 1 * 2.5) / (1 + norm), 6);
  });

  it('returns nothing for unknown words, stop words or an empty index', () => {
    expect(build().search('zzyzx qwertyuiop')).toEqual([]);
    expect(build().search('the of and')).toEqual([]);
    expect(createLexicalIndex().search('file')).toEqual([]);
  });

  it('honours limit and returns scores best first', () => {
    const hits = build().search('file directory entities numbers', { limit: 2 });
    expect(hits).toHaveLength(2);
    expect((hits[0]?.score ?? 0) >= (hits[1]?.score ?? 0)).toBe(true);
  });
});

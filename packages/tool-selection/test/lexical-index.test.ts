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

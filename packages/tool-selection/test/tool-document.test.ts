import { describe, expect, it } from 'vitest';
import { hashToolDocument, splitIdentifier, toEmbeddingText, toToolDocument } from '../src/index.js';
import { splitCompound } from '../src/tool-document.js';

describe('toToolDocument', () => {
  const tool = {
    name: 'mcp__files__readTextFile',
    originalName: 'readTextFile',
    description: 'Read a file as text',
    server: 'my-files',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: { type: 'string', description: 'Where the file is' },
        options: { type: 'object', properties: { maxBytes: { type: 'number' } } },
      },
    },
    meta: { serverDescription: 'Local disk access', categories: ['storage'] },
  };

  it('gathers name words, description, parameters and server text', () => {
    const document = toToolDocument(tool);
    expect(document.name).toBe('read Text File');
    expect(document.parameters).toBe('file Path Where the file is options max Bytes');
    expect(document.server).toBe('my files Local disk access storage');
    expect(toEmbeddingText(document)).toContain('read Text File: Read a file as text');
  });

  it('hashes equal documents equally and any change differently', () => {
    const hash = hashToolDocument(toToolDocument(tool));
    expect(hashToolDocument(toToolDocument({ ...tool }))).toBe(hash);
    expect(hashToolDocument(toToolDocument({ ...tool, description: 'Read a file as text.' }))).not.toBe(hash);
    expect(hashToolDocument(toToolDocument({ ...tool, server: 'other' }))).not.toBe(hash);
  });

  it('splits identifiers on case, underscores, dashes and dots', () => {
    expect(splitIdentifier('fs.read-file_now')).toBe('fs read file now');
    expect(splitIdentifier('getHTTPResponse')).toBe('get HTTP Response');
  });

  it('splits run-together names with the words of their own description', () => {
    expect(splitCompound('diceroller', new Set(['dice', 'roll']))).toEqual(['dice', 'roll']);
    expect(splitCompound('keywordexplorer', new Set(['keyword', 'explorer']))).toEqual([
      'keyword',
      'explorer',
    ]);
    expect(splitCompound('copilot', new Set(['car']))).toBeUndefined();
    expect(toToolDocument({ name: 'socialsearch', description: 'Search social networks' }).name).toBe(
      'socialsearch social search',
    );
  });
});

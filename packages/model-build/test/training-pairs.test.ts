import { createTemporaryDirectory } from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';
import type { TrainingSet } from '../src/index.js';
import { addCataloguePairs, addLabelledPairs, readTrainingFolder } from '../src/index.js';

const lines = (items: unknown[]) => items.map((item) => JSON.stringify(item)).join('\n');
// Token ids are not what is tested here: one id per word, as the real tokenizer gives one or more.
const words = new Map<string, number>();
const encode = (text: string) =>
  Int32Array.from(
    text
      .toLowerCase()
      .split(/\W+/)
      .filter(Boolean)
      .map((word) => words.get(word) ?? words.set(word, words.size + 3).get(word) ?? 0),
  );

describe('training pairs from a labelled folder', () => {
  it('pairs each query with each expected tool; BM25 look-alikes are negatives, variants of an answer never', () => {
    using folder = createTemporaryDirectory('training-folder-');
    folder.write(
      'tools.jsonl',
      lines([
        { name: 'get_weather', description: 'Current weather for a city', original_name: 'get_weather' },
        { name: 'get_weather#a1', description: 'Weather now in a city', original_name: 'get_weather' },
        { name: 'get_forecast', description: 'Weather forecast for a city, days ahead' },
        { name: 'send_email', description: 'Send an email message' },
      ]),
    );
    folder.write(
      'queries.jsonl',
      lines([{ query: 'weather in Paris and email it to me', expected: ['get_weather', 'send_email'] }]),
    );
    const set: TrainingSet = { documents: [], pairs: [] };
    addLabelledPairs(set, readTrainingFolder(folder.path), encode, 8);
    expect(set.documents).toHaveLength(4);
    expect(set.pairs.map((pair) => pair.positive)).toEqual([0, 3]);
    const [pair] = set.pairs;
    // The variant of get_weather answers too: it is a positive, not a negative.
    expect([...(pair?.positives ?? [])].sort()).toEqual([0, 1, 3]);
    expect(pair?.hardNegatives).toEqual([2]);
    expect(set.pairs.every((item) => item.group === 0)).toBe(true);
  });

  it('says which line is wrong when a query names a tool the folder lacks', () => {
    using folder = createTemporaryDirectory('training-folder-');
    folder.write('tools.jsonl', lines([{ name: 'a', description: 'x' }]));
    folder.write(
      'queries.jsonl',
      lines([
        { query: 'q', expected: ['a'] },
        { query: 'r', expected: ['b'] },
      ]),
    );
    expect(() => readTrainingFolder(folder.path)).toThrow(/queries\.jsonl:2: .*unknown: b/);
  });

  it('makes weak catalogue pairs, name words to description, in their own group and weight', () => {
    using labelled = createTemporaryDirectory('training-folder-');
    labelled.write('tools.jsonl', lines([{ name: 'a', description: 'x' }]));
    labelled.write('queries.jsonl', lines([{ query: 'x', expected: ['a'] }]));
    using catalogue = createTemporaryDirectory('training-catalogue-');
    catalogue.write(
      'tools.jsonl',
      lines([
        { name: 'github.createIssue', description: 'Open an issue in a repository' },
        { name: 'no_description', description: '' },
      ]),
    );
    const set: TrainingSet = { documents: [], pairs: [] };
    addLabelledPairs(set, readTrainingFolder(labelled.path), encode, 8);
    addCataloguePairs(set, readTrainingFolder(catalogue.path, { labelled: false }), encode, 1.5);
    expect(set.pairs).toHaveLength(2);
    const weak = set.pairs[1];
    expect(weak?.group).toBe(1);
    expect(weak?.weight).toBe(1.5);
    expect(weak?.query).toEqual(encode('github create Issue'));
    expect(set.documents[weak?.positive ?? -1]).toEqual(encode('Open an issue in a repository'));
  });
});

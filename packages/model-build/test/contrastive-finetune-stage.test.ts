import { createTemporaryDirectory } from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';
import {
  createContrastiveFinetuneStage,
  createTokenRows,
  resolveRecipe,
  trainingDataHashes,
} from '../src/index.js';

const lines = (items: unknown[]) => items.map((item) => JSON.stringify(item)).join('\n');

describe('the contrastive fine-tuning stage', () => {
  it('trains on the recipe folders with the model tokenizer, and leaves special and stopword rows alone', async () => {
    using root = createTemporaryDirectory('training-root-');
    root.write(
      'tools-a/tools.jsonl',
      lines([
        { name: 'read_file', description: 'read a file from disk' },
        { name: 'send_mail', description: 'send a mail message' },
      ]),
    );
    root.write(
      'tools-a/queries.jsonl',
      lines([
        { query: 'open the file', expected: ['read_file'] },
        { query: 'mail my boss', expected: ['send_mail'] },
      ]),
    );
    root.write('catalogue/tools.jsonl', lines([{ name: 'list_dir', description: 'list a folder' }]));
    const vocabulary: Record<string, number> = { '[PAD]': 0, '[UNK]': 1, '[CLS]': 2 };
    const encode = (text: string) => [
      2,
      ...text
        .toLowerCase()
        .split(/\W+/)
        .filter(Boolean)
        .map((word) => (vocabulary[word] ??= Object.keys(vocabulary).length)),
    ];
    for (const word of 'the a my read file from disk send mail message open boss list dir folder'.split(' '))
      encode(word);
    const count = Object.keys(vocabulary).length;
    const rows = createTokenRows(count, 4);
    for (let index = 3 * 4; index < rows.data.length; index++)
      if (index % 4 !== 3) rows.data[index] = Math.sin(index);
    for (const stopword of ['the', 'a', 'my'])
      rows.data.fill(0, (vocabulary[stopword] as number) * 4, (vocabulary[stopword] as number) * 4 + 4);
    const before = Float32Array.from(rows.data);
    const recipe = { ...resolveRecipe(), dims: 4 };
    recipe.contrastive = {
      ...recipe.contrastive,
      folders: ['tools-a'],
      catalogue: 'catalogue',
      epochs: 3,
      batchSize: 2,
    };
    const logged: string[] = [];
    const stage = createContrastiveFinetuneStage({
      recipe: recipe.contrastive,
      dataRoot: root.path,
      stopwords: ['the', 'a', 'my'],
    });
    const result = await stage.run(rows, {
      recipe,
      tokenizer: { encode, vocabulary },
      log: (line) => logged.push(line),
    });
    expect(logged[0]).toContain('2 labelled pairs from tools-a, 1 weak pairs from catalogue');
    const row = (data: Float32Array, word: string) => [
      ...data.subarray((vocabulary[word] as number) * 4, (vocabulary[word] as number) * 4 + 4),
    ];
    for (const frozen of ['[PAD]', '[CLS]', 'the', 'my'])
      expect(row(result.data, frozen)).toEqual(row(before, frozen));
    expect(row(result.data, 'file')).not.toEqual(row(before, 'file'));
    for (let id = 0; id < count; id++) expect(result.data[id * 4 + 3]).toBe(0);
  });

  it('names the missing data file and the option to point elsewhere', () => {
    using root = createTemporaryDirectory('training-root-');
    expect(() => trainingDataHashes(root.path, resolveRecipe().contrastive)).toThrow(
      /seal-tools\/tools\.jsonl.*--data <dir>/,
    );
  });
});

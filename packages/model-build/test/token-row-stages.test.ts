import { describe, expect, it } from 'vitest';
import {
  createBuildLog,
  createTokenRows,
  resolveRecipe,
  runTokenRowStages,
  type TokenRowContext,
  type TokenRowStage,
  tokenlearn,
} from '../src/index.js';

const context: TokenRowContext = {
  recipe: resolveRecipe(),
  tokenizer: { encode: () => [], vocabulary: {} },
  log: createBuildLog({ silent: true }),
};

describe('runTokenRowStages', () => {
  it('runs the stages in order, each on the rows the one before returned', async () => {
    const seen: string[] = [];
    const stage = (name: string, add: number): TokenRowStage => ({
      name,
      run(rows) {
        seen.push(name);
        rows.data[0] = (rows.data[0] as number) * 10 + add;
        return rows;
      },
    });
    const rows = await runTokenRowStages(
      createTokenRows(2, 3),
      [stage('first', 1), stage('second', 2)],
      context,
    );
    expect(seen).toEqual(['first', 'second']);
    expect(rows.data[0]).toBe(12);
  });

  it('stops a stage that writes into the guard dimension, naming it and the row', async () => {
    const bad: TokenRowStage = {
      name: 'contrastive-finetune',
      run(rows) {
        rows.data[1 * 3 + 2] = 0.5;
        return rows;
      },
    };
    await expect(runTokenRowStages(createTokenRows(2, 3), [bad], context)).rejects.toThrow(
      /"contrastive-finetune" wrote 0.5 into the guard dimension \(column 2\) of row 1/,
    );
  });

  it('stops a stage that changes the shape or leaves NaN', async () => {
    const shrink: TokenRowStage = { name: 'shrink', run: () => createTokenRows(1, 3) };
    await expect(runTokenRowStages(createTokenRows(2, 3), [shrink], context)).rejects.toThrow(
      /"shrink" returned 1 × 3 rows .* expected 2 × 3/,
    );
    const nan: TokenRowStage = {
      name: 'nan',
      run(rows) {
        rows.data[0] = Number.NaN;
        return rows;
      },
    };
    await expect(runTokenRowStages(createTokenRows(2, 3), [nan], context)).rejects.toThrow(
      /"nan" left a non-finite/,
    );
  });
});

describe('tokenlearn', () => {
  // Two words, 2 dimensions + the guard. Every sentence should point along (0, 1); the rows start along
  // (1, 0) and (1, 0.1). Row 2 starts at zero and must stay there, whatever the sentences say.
  function setup() {
    const rows = createTokenRows(3, 3);
    rows.data.set([1, 0, 0, 1, 0.1, 0, 0, 0, 0]);
    const sentences = [[0, 1], [1], [2, 0]];
    const targets = Float32Array.from([0, 1, 0, 1, 0, 1]);
    return { rows, sentences, targets };
  }

  it('lowers the loss epoch by epoch and moves the pooled vector towards its target', () => {
    const { rows, sentences, targets } = setup();
    const losses = tokenlearn(
      rows,
      sentences,
      targets,
      { epochs: 4, learningRate: 0.2, pull: 0.01, seed: 7 },
      context.log,
    );
    expect(losses).toHaveLength(4);
    for (let epoch = 1; epoch < 4; epoch++) expect(losses[epoch]).toBeLessThan(losses[epoch - 1] as number);
    const pooled = [
      (rows.data[0] as number) + (rows.data[3] as number),
      (rows.data[1] as number) + (rows.data[4] as number),
    ];
    expect(pooled[1]! / Math.hypot(...pooled)).toBeGreaterThan(0.5);
  });

  it('leaves zero rows and the guard column at zero, and is deterministic for a seed', () => {
    const first = setup();
    tokenlearn(
      first.rows,
      first.sentences,
      first.targets,
      { epochs: 3, learningRate: 0.2, pull: 0.01, seed: 7 },
      context.log,
    );
    expect(Array.from(first.rows.data.subarray(6, 9))).toEqual([0, 0, 0]);
    expect([first.rows.data[2], first.rows.data[5]]).toEqual([0, 0]);
    const second = setup();
    tokenlearn(
      second.rows,
      second.sentences,
      second.targets,
      { epochs: 3, learningRate: 0.2, pull: 0.01, seed: 7 },
      context.log,
    );
    expect(second.rows.data).toEqual(first.rows.data);
  });

  it('rejects targets of another width', () => {
    const { rows, sentences } = setup();
    expect(() =>
      tokenlearn(
        rows,
        sentences,
        new Float32Array(5),
        { epochs: 1, learningRate: 0.1, pull: 0, seed: 1 },
        context.log,
      ),
    ).toThrow(/5 target values for 3 sentences × 2/);
  });
});

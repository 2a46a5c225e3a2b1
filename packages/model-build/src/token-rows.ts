/**
 * The float token rows, what the stages between the distillation and the quantisation pass along, and the
 * shape of such a stage. A stage takes the rows and the build's context and returns new rows: the Tokenlearn
 * refit is one (tokenlearn-refit.ts); a fine-tuning stage is added to the list in build-model.ts the same way.
 */
import type { BuildLog } from './build-log.js';
import type { ModelRecipe } from './model-recipe.js';
import type { ModelTokenizer } from './tokenizer-writer.js';

/**
 * The embedding table before quantisation: one float32 row per token id, `dims` wide (the model's output
 * width). The last column is the guard dimension: it stays zero in the rows (the graph adds the constant
 * bias there), and so do the rows of the special tokens and of the stopwords.
 */
export interface TokenRows {
  /** Row-major [count × dims]; row i is token id i. */
  data: Float32Array;
  /** Number of rows: the vocabulary size, special tokens included. */
  count: number;
  /** Width of a row, guard dimension included. */
  dims: number;
}

/** What a {@link TokenRowStage} may read besides the rows. */
export interface TokenRowContext {
  recipe: ModelRecipe;
  /** The model's own tokenizer (`@huggingface/tokenizers` on the tokenizer.json written later, as run time tokenises), so that training sees the ids that run time sees. */
  tokenizer: ModelTokenizer;
  log: BuildLog;
}

/** A named step that moves the token rows: `(rows, context) => rows`. */
export interface TokenRowStage {
  /** Its name in the build's log and in errors (kebab-case, the name of its module). */
  name: string;
  /** Returns the new rows; may reuse and modify `rows.data`. Must keep count, width and the zero guard column. */
  run(rows: TokenRows, context: TokenRowContext): TokenRows | Promise<TokenRows>;
}

/** Zero rows [count × dims]. */
export function createTokenRows(count: number, dims: number): TokenRows {
  return { data: new Float32Array(count * dims), count, dims };
}

/**
 * Checks what every stage must keep: the shape, finite values, a zero guard column. Throws an error
 * naming the stage and the first bad row, so that a stage's bug is caught before it reaches the model.
 */
export function checkTokenRows(
  rows: TokenRows,
  expected: { count: number; dims: number },
  stage: string,
): void {
  if (
    rows.count !== expected.count ||
    rows.dims !== expected.dims ||
    rows.data.length !== rows.count * rows.dims
  ) {
    throw new Error(
      `token-row stage "${stage}" returned ${rows.count} × ${rows.dims} rows (${rows.data.length} values); expected ${expected.count} × ${expected.dims}: a stage must keep the vocabulary and the width.`,
    );
  }
  const guard = rows.dims - 1;
  for (let id = 0; id < rows.count; id++) {
    const offset = id * rows.dims;
    for (let j = 0; j < rows.dims; j++) {
      const value = rows.data[offset + j] as number;
      if (!Number.isFinite(value)) {
        throw new Error(`token-row stage "${stage}" left a non-finite value in row ${id}, column ${j}.`);
      }
    }
    if (rows.data[offset + guard] !== 0) {
      throw new Error(
        `token-row stage "${stage}" wrote ${rows.data[offset + guard]} into the guard dimension (column ${guard}) of row ${id}: that column must stay zero (the graph adds the bias there).`,
      );
    }
  }
}

/**
 * What each token id of a WordPiece vocabulary is — a word start, a `##` continuation, or neither —
 * so that a text without a known word can be embedded as zeros. Shared by the ONNX path
 * (`transformers-embedder.ts`) and the static pooling path (`static-embedder.ts`).
 */

/** The parts of a transformers.js tokenizer that {@link wordPieceKinds} reads. */
export interface WordPieceTokenizerLike {
  model?: {
    constructor?: { name?: string };
    tokens_to_ids?: Map<string, number>;
    config?: { continuing_subword_prefix?: string };
  };
  all_special_ids?: number[];
}

const WORD_START = 1;
const CONTINUATION = 2;

/**
 * For WordPiece vocabularies, what each token id is: a word start, a `##` continuation, or neither
 * (single characters, special tokens). A text without a known word — a word start not followed by
 * continuation pieces, as in "qwxz vbnmt" spelled out in letters and fragments — carries nothing a
 * model could have learnt: it is embedded as zeros, so the dense signal stays out of its ranking.
 * Undefined for other tokenizers (no such convention).
 */
export function wordPieceKinds(tokenizer: WordPieceTokenizerLike): Uint8Array | undefined {
  const model = tokenizer.model;
  const vocabulary = model?.tokens_to_ids;
  if (!vocabulary || model?.constructor?.name !== 'WordPieceTokenizer') return undefined;
  const prefix = model.config?.continuing_subword_prefix ?? '##';
  const special = new Set(tokenizer.all_special_ids ?? []);
  let size = 0;
  for (const id of vocabulary.values()) size = Math.max(size, id + 1);
  const kinds = new Uint8Array(size);
  for (const [token, id] of vocabulary) {
    if (token.startsWith(prefix)) kinds[id] = CONTINUATION;
    else if (token.length > 1 && !special.has(id) && !/^\[.*\]$/.test(token)) kinds[id] = WORD_START;
  }
  return kinds;
}

/**
 * True when `ids[start, end)` holds a known word: a word start not followed by a continuation
 * piece. Ids (and the attention mask of a padded batch, whose zeros are skipped) may be numbers or
 * the bigints of a transformers.js tensor.
 */
export function hasKnownWord(
  ids: ArrayLike<number | bigint>,
  start: number,
  end: number,
  kinds: Uint8Array,
  mask?: ArrayLike<number | bigint>,
): boolean {
  const live = (position: number) => !mask || Number(mask[position]) !== 0;
  for (let position = start; position < end; position++) {
    if (!live(position) || kinds[Number(ids[position])] !== WORD_START) continue;
    const next = position + 1 < end && live(position + 1) ? kinds[Number(ids[position + 1])] : 0;
    if (next !== CONTINUATION) return true;
  }
  return false;
}

/**
 * What each token id of a WordPiece vocabulary is — a word start, a `##` continuation, or neither —
 * so that a text without a known word can be embedded as zeros. Read from the tokenizer's
 * `tokenizer.json` (the Hugging Face `tokenizers` format), not from a tokenizer library's objects, so
 * that the static pooling path (`static-embedder.ts`) and the ONNX path (`transformers-embedder.ts`)
 * share it whatever library tokenises.
 */

/** The parts of a `tokenizer.json` that {@link wordPieceKinds} reads. */
export interface TokenizerJsonLike {
  model?: {
    type?: string;
    vocab?: unknown;
    continuing_subword_prefix?: string;
  };
  added_tokens?: ReadonlyArray<{ id?: number; special?: boolean }>;
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
export function wordPieceKinds(tokenizerJson: TokenizerJsonLike): Uint8Array | undefined {
  const model = tokenizerJson.model;
  const vocabulary = model?.vocab;
  if (model?.type !== 'WordPiece' || typeof vocabulary !== 'object' || vocabulary === null) return undefined;
  const entries = Object.entries(vocabulary as Record<string, unknown>).filter(
    (entry): entry is [string, number] => Number.isInteger(entry[1]) && (entry[1] as number) >= 0,
  );
  const prefix = model.continuing_subword_prefix ?? '##';
  const special = new Set(
    (tokenizerJson.added_tokens ?? []).filter((token) => token.special).map((token) => token.id),
  );
  let size = 0;
  for (const [, id] of entries) size = Math.max(size, id + 1);
  const kinds = new Uint8Array(size);
  for (const [token, id] of entries) {
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

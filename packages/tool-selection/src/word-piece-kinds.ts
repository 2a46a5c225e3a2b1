/**
 * What each token id of a WordPiece vocabulary is — a word start, a `##` continuation, or neither —
 * so that a text without a known word can be embedded as zeros. Read from the tokenizer's
 * `tokenizer.json` (the Hugging Face `tokenizers` format), not from a tokenizer library's objects, so
 * that the static pooling path (`static-embedder.ts`) and the ONNX path (`transformers-embedder.ts`)
 * share it whatever library tokenises.
 */

/** The parts of a `tokenizer.json` that {@link wordPieceVocabulary} reads. */
export interface TokenizerJsonLike {
  model?: {
    type?: string;
    vocab?: unknown;
    continuing_subword_prefix?: string;
  };
  added_tokens?: ReadonlyArray<{ id?: number; special?: boolean }>;
}

/** A WordPiece vocabulary, as {@link wordPieceKinds} needs it. */
export interface WordPieceVocabulary {
  /** Token text by id (a tokenizer library's id → token array, or one built from the JSON). */
  tokens: ReadonlyArray<string | undefined>;
  /** The prefix of continuation pieces. @default '##' */
  continuingSubwordPrefix?: string;
  /** Ids of the special tokens (`[CLS]`, …). */
  specialIds: ReadonlySet<number | undefined>;
}

const WORD_START = 1;
const CONTINUATION = 2;

/**
 * The vocabulary of a `tokenizer.json` whose model is WordPiece; undefined for other tokenizers (no
 * such convention). `tokens`, when given (a tokenizer library has built it already), saves walking
 * the JSON's vocabulary object, which costs tens of milliseconds at 50,000 tokens.
 */
export function wordPieceVocabulary(
  tokenizerJson: TokenizerJsonLike,
  tokens?: ReadonlyArray<string | undefined>,
): WordPieceVocabulary | undefined {
  const model = tokenizerJson.model;
  if (model?.type !== 'WordPiece' || typeof model.vocab !== 'object' || model.vocab === null)
    return undefined;
  let byId = tokens;
  if (byId === undefined) {
    const built: string[] = [];
    const vocab = model.vocab as Record<string, unknown>;
    for (const token in vocab) {
      const id = vocab[token];
      if (typeof id === 'number' && Number.isInteger(id) && id >= 0) built[id] = token;
    }
    byId = built;
  }
  return {
    tokens: byId,
    ...(model.continuing_subword_prefix === undefined
      ? {}
      : { continuingSubwordPrefix: model.continuing_subword_prefix }),
    specialIds: new Set(
      (tokenizerJson.added_tokens ?? []).filter((token) => token.special).map((token) => token.id),
    ),
  };
}

/**
 * What each token id of a WordPiece vocabulary is: a word start, a `##` continuation, or neither
 * (single characters, special tokens). A text without a known word — a word start not followed by
 * continuation pieces, as in "qwxz vbnmt" spelled out in letters and fragments — carries nothing a
 * model could have learnt: it is embedded as zeros, so the dense signal stays out of its ranking.
 */
export function wordPieceKinds(vocabulary: WordPieceVocabulary): Uint8Array {
  const { tokens, specialIds } = vocabulary;
  const prefix = vocabulary.continuingSubwordPrefix ?? '##';
  const kinds = new Uint8Array(tokens.length);
  for (let id = 0; id < tokens.length; id++) {
    const token = tokens[id];
    if (token === undefined) continue;
    if (token.startsWith(prefix)) kinds[id] = CONTINUATION;
    else if (token.length > 1 && !specialIds.has(id) && !(token.startsWith('[') && token.endsWith(']')))
      kinds[id] = WORD_START;
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

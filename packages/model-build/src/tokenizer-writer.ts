/**
 * The tokenizer and the configs of the model folder: a BERT-style WordPiece tokenizer.json (lower-case,
 * accents stripped, `[CLS]` in front of every text), tokenizer_config.json and config.json with
 * `model_type: "bert"`, so that transformers.js picks its BERT classes. The same tokenizer.json, run by
 * `@huggingface/tokenizers` as tool-selection's `createStaticEmbedder` runs it, gives the ids the
 * training stages see.
 */
import { OFFLINE_MODEL_SPECIAL_TOKENS } from '@switchboard/tool-selection';
import type { ModelRecipe } from './model-recipe.js';
import type { Vocabulary } from './vocabulary.js';

/** Token text → id, in id order: the special tokens, the words, then the `##` continuations. */
export type TokenVocabulary = Record<string, number>;

/** The tokenizer the training stages encode with: the run time's (`@huggingface/tokenizers`), on the tokenizer.json written. */
export interface ModelTokenizer {
  /** Token ids of `text`, `[CLS]` first, as run time encodes it. */
  encode(text: string): number[];
  /** Token text → id. */
  vocabulary: Readonly<TokenVocabulary>;
}

/** Ids of the vocabulary: text i gets id `3 + i` (after [PAD], [UNK], [CLS]); continuations get their `##`. */
export function tokenVocabulary(vocabulary: Vocabulary): TokenVocabulary {
  const tokens: TokenVocabulary = { ...OFFLINE_MODEL_SPECIAL_TOKENS };
  const first = Object.keys(OFFLINE_MODEL_SPECIAL_TOKENS).length;
  const wordCount = vocabulary.words.length + vocabulary.extraWords.length;
  const texts = [...vocabulary.words, ...vocabulary.extraWords, ...vocabulary.continuations];
  texts.forEach((text, i) => {
    tokens[i < wordCount ? text : `##${text}`] = first + i;
  });
  return tokens;
}

/** tokenizer.json (Hugging Face `tokenizers` format) of a WordPiece vocabulary. */
export function tokenizerJson(vocabulary: TokenVocabulary): Record<string, unknown> {
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const ids = OFFLINE_MODEL_SPECIAL_TOKENS;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [
      special(ids['[PAD]'], '[PAD]'),
      special(ids['[UNK]'], '[UNK]'),
      special(ids['[CLS]'], '[CLS]'),
    ],
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: true,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
      ],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [ids['[CLS]']], tokens: ['[CLS]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: vocabulary,
    },
  };
}

/** tokenizer_config.json. */
export function tokenizerConfig(recipe: Pick<ModelRecipe, 'maxLength'>): Record<string, unknown> {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    strip_accents: true,
    unk_token: '[UNK]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    model_max_length: recipe.maxLength,
  };
}

/** config.json: what makes transformers.js load the folder as a BERT model of this width. */
export function modelConfig(
  recipe: Pick<ModelRecipe, 'dims' | 'maxLength'>,
  tokens: number,
): Record<string, unknown> {
  return {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: recipe.dims,
    vocab_size: tokens,
    max_position_embeddings: recipe.maxLength,
  };
}

/**
 * `@huggingface/tokenizers` on {@link tokenizerJson}: the tokenizer run time loads from the folder
 * (transformers.js' `BertTokenizer`, which built the committed model, gives the same ids: checked on
 * the 217,547 texts of the bench sets).
 */
export async function createModelTokenizer(
  vocabulary: TokenVocabulary,
  recipe: Pick<ModelRecipe, 'maxLength'>,
): Promise<ModelTokenizer> {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const tokenizer = new Tokenizer(tokenizerJson(vocabulary), tokenizerConfig(recipe));
  return { encode: (text) => tokenizer.encode(text).ids, vocabulary };
}

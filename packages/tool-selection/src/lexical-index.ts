/**
 * A BM25 index over tool documents, incremental: add, replace and remove without rebuilding.
 * Terms are tokenised once at insert time into postings lists; a query touches only the postings of
 * its own terms and reuses its scratch arrays, so search cost grows with matches, not with tools.
 */

import { type TokenizeOptions, tokenize } from './text-tokens.js';
import type { ToolDocument } from './tool-document.js';

/** Weight of each document field, as a term-frequency multiplier (a simple BM25F). */
export interface LexicalFieldWeights {
  /** @default 2 */
  name?: number;
  /** @default 1 */
  title?: number;
  /** @default 1 */
  description?: number;
  /** @default 0.5 */
  parameters?: number;
  /** @default 0.5 */
  server?: number;
}

/** Options of {@link createLexicalIndex}. */
export interface LexicalIndexOptions {
  /** BM25 term-frequency saturation. @default 1.5 */
  k1?: number;
  /** BM25 length normalisation. @default 0.75 */
  b?: number;
  /** Field weights. */
  fieldWeights?: LexicalFieldWeights;
  /**
   * Terms of words beyond ASCII (`tokenize`'s `nonLatin`): character pairs for Chinese, Japanese,
   * Korean and Thai, a prefix for other inflected scripts; `'words'` indexes each run of letters
   * whole. @default 'ngrams'
   */
  nonLatin?: 'ngrams' | 'words';
}

/** One search hit. */
export interface LexicalHit {
  id: string;
  /** BM25 score (unbounded, > 0). */
  score: number;
}

/** An incremental BM25 index. */
export interface LexicalIndex {
  /** Adds a document, or replaces the one with the same id. A string is indexed as a description. */
  add(id: string, document: ToolDocument | string): void;
  /** Removes a document; false when absent. */
  remove(id: string): boolean;
  has(id: string): boolean;
  /** Number of documents. */
  readonly size: number;
  /** The best `limit` documents for `query`, best first (only documents sharing a term with it). */
  search(query: string, options?: { limit?: number }): LexicalHit[];
  /** Removes everything. */
  clear(): void;
}

/** Postings of one term, in typed arrays that grow by doubling (GC-free, 8 bytes a posting). */
interface Postings {
  slots: Int32Array;
  frequencies: Float32Array;
  /** Entries in use (live and stale). */
  count: number;
  /** Live documents holding the term. */
  documentFrequency: number;
}

/** Creates an empty BM25 index. */
export function createLexicalIndex(options: LexicalIndexOptions = {}): LexicalIndex {
  const k1 = options.k1 ?? 1.5;
  const tokenizeOptions: TokenizeOptions = { nonLatin: options.nonLatin ?? 'ngrams' };
  const b = options.b ?? 0.75;
  const weights = {
    name: options.fieldWeights?.name ?? 2,
    title: options.fieldWeights?.title ?? 1,
    description: options.fieldWeights?.description ?? 1,
    parameters: options.fieldWeights?.parameters ?? 0.5,
    server: options.fieldWeights?.server ?? 0.5,
  };

  // Terms get dense ids: postings and each document's term list are then arrays and typed arrays,
  // not string-keyed maps and arrays of strings. At 100,000 tools this halved the index's memory
  // (159 → 85 MB) and its build time, most of which was garbage collection (a warm restart builds it).
  const termIds = new Map<string, number>();
  let postings: Array<Postings | undefined> = [];
  const freeTermIds: number[] = [];
  const slotById = new Map<string, number>();
  let ids: Array<string | undefined> = [];
  let lengths: number[] = [];
  let termsBySlot: Array<Int32Array | undefined> = [];
  const freeSlots: number[] = [];
  let liveCount = 0;
  let totalLength = 0;
  let staleEntries = 0;
  let liveEntries = 0;
  // BM25's length normalisation per slot, recomputed (O(slots)) on the first query after a change.
  let norms = new Float64Array(64);
  let normsStale = true;
  // Scratch reused by every query.
  let scores = new Float64Array(64);
  let touched = new Int32Array(64);
  // Scratch reused by every insert: a document's weighted term frequencies by term id.
  let documentFrequencies = new Float64Array(64);
  let documentTerms = new Int32Array(64);

  function termId(term: string): number {
    let id = termIds.get(term);
    if (id === undefined) {
      id = freeTermIds.pop() ?? postings.length;
      termIds.set(term, id);
      postings[id] = {
        slots: new Int32Array(2),
        frequencies: new Float32Array(2),
        count: 0,
        documentFrequency: 0,
      };
      if (documentFrequencies.length <= id) {
        const grown = new Float64Array(documentFrequencies.length * 2);
        grown.set(documentFrequencies);
        documentFrequencies = grown;
      }
    }
    return id;
  }

  /** Fills `documentTerms` with the distinct term ids of `document` (first-seen order); returns how many. */
  function collectTerms(document: ToolDocument | string): number {
    let distinct = 0;
    const addField = (text: string, weight: number) => {
      if (!text || weight <= 0) return;
      for (const term of tokenize(text, tokenizeOptions)) {
        const id = termId(term);
        if (documentFrequencies[id] === 0) {
          if (distinct === documentTerms.length) {
            const grown = new Int32Array(documentTerms.length * 2);
            grown.set(documentTerms);
            documentTerms = grown;
          }
          documentTerms[distinct++] = id;
        }
        documentFrequencies[id] = (documentFrequencies[id] as number) + weight;
      }
    };
    if (typeof document === 'string') addField(document, 1);
    else {
      addField(document.name, weights.name);
      addField(document.title, weights.title);
      addField(document.description, weights.description);
      addField(document.parameters, weights.parameters);
      addField(document.server, weights.server);
    }
    return distinct;
  }

  function append(entry: Postings, slot: number, frequency: number): void {
    if (entry.count === entry.slots.length) {
      const slots = new Int32Array(entry.slots.length * 2);
      slots.set(entry.slots);
      entry.slots = slots;
      const frequencies = new Float32Array(entry.frequencies.length * 2);
      frequencies.set(entry.frequencies);
      entry.frequencies = frequencies;
    }
    entry.slots[entry.count] = slot;
    entry.frequencies[entry.count] = frequency;
    entry.count++;
  }

  function remove(id: string): boolean {
    const slot = slotById.get(id);
    if (slot === undefined) return false;
    const terms = termsBySlot[slot] ?? new Int32Array(0);
    for (const term of terms) {
      const entry = postings[term];
      if (entry) entry.documentFrequency--;
    }
    staleEntries += terms.length;
    liveEntries -= terms.length;
    totalLength -= lengths[slot] ?? 0;
    slotById.delete(id);
    ids[slot] = undefined;
    termsBySlot[slot] = undefined;
    lengths[slot] = 0;
    liveCount--;
    normsStale = true;
    // Slots are reused only after compaction, which drops their stale postings first.
    if (staleEntries > 1024 && staleEntries > liveEntries) compact();
    return true;
  }

  function compact(): void {
    for (const entry of postings) {
      if (!entry) continue;
      let kept = 0;
      for (let index = 0; index < entry.count; index++) {
        const slot = entry.slots[index] as number;
        if (ids[slot] === undefined) continue;
        entry.slots[kept] = slot;
        entry.frequencies[kept] = entry.frequencies[index] as number;
        kept++;
      }
      entry.count = kept;
    }
    // A term no live document holds any more gives its id back (no document's term list names it).
    for (const [term, termIndex] of termIds) {
      if ((postings[termIndex] as Postings).count > 0) continue;
      termIds.delete(term);
      postings[termIndex] = undefined;
      freeTermIds.push(termIndex);
    }
    freeSlots.length = 0;
    for (let slot = 0; slot < ids.length; slot++) if (ids[slot] === undefined) freeSlots.push(slot);
    staleEntries = 0;
  }

  function add(id: string, document: ToolDocument | string): void {
    remove(id);
    const distinct = collectTerms(document);
    const slot = freeSlots.pop() ?? ids.length;
    ids[slot] = id;
    slotById.set(id, slot);
    let length = 0;
    const terms = new Int32Array(distinct);
    for (let index = 0; index < distinct; index++) {
      const term = documentTerms[index] as number;
      const frequency = documentFrequencies[term] as number;
      documentFrequencies[term] = 0;
      const entry = postings[term] as Postings;
      append(entry, slot, frequency);
      entry.documentFrequency++;
      length += frequency;
      terms[index] = term;
    }
    termsBySlot[slot] = terms;
    lengths[slot] = length;
    totalLength += length;
    liveEntries += distinct;
    liveCount++;
    normsStale = true;
  }

  function search(query: string, searchOptions: { limit?: number } = {}): LexicalHit[] {
    const limit = searchOptions.limit ?? 10;
    if (liveCount === 0 || limit <= 0) return [];
    const terms = [...new Set(tokenize(query, tokenizeOptions))];
    if (terms.length === 0) return [];
    if (scores.length < ids.length) {
      scores = new Float64Array(ids.length * 2);
      touched = new Int32Array(ids.length * 2);
    }
    if (normsStale) {
      if (norms.length < ids.length) norms = new Float64Array(ids.length * 2);
      const averageLength = totalLength / liveCount || 1;
      for (let slot = 0; slot < ids.length; slot++) {
        norms[slot] = k1 * (1 - b + (b * (lengths[slot] as number)) / averageLength);
      }
      normsStale = false;
    }
    let touchedCount = 0;
    for (const term of terms) {
      const termIndex = termIds.get(term);
      const entry = termIndex === undefined ? undefined : postings[termIndex];
      if (!entry || entry.documentFrequency <= 0) continue;
      const df = entry.documentFrequency;
      const idf = Math.log(1 + (liveCount - df + 0.5) / (df + 0.5));
      const { slots, frequencies, count } = entry;
      for (let index = 0; index < count; index++) {
        const slot = slots[index] as number;
        if (ids[slot] === undefined) continue;
        const frequency = frequencies[index] as number;
        const norm = norms[slot] as number;
        const contribution = (idf * frequency * (k1 + 1)) / (frequency + norm);
        if (scores[slot] === 0) touched[touchedCount++] = slot;
        scores[slot] = (scores[slot] as number) + contribution;
      }
    }
    const hits = selectTop(touchedCount, limit);
    for (let index = 0; index < touchedCount; index++) scores[touched[index] as number] = 0;
    return hits;
  }

  function selectTop(count: number, limit: number): LexicalHit[] {
    // A bounded insertion list: limit is small (tens), so this beats sorting every match.
    const top: number[] = [];
    for (let index = 0; index < count; index++) {
      const slot = touched[index] as number;
      const score = scores[slot] as number;
      if (top.length === limit && score <= (scores[top[limit - 1] as number] as number)) continue;
      let position = top.length < limit ? top.length : limit - 1;
      while (position > 0 && (scores[top[position - 1] as number] as number) < score) position--;
      top.splice(position, 0, slot);
      if (top.length > limit) top.pop();
    }
    return top.map((slot) => ({ id: ids[slot] as string, score: scores[slot] as number }));
  }

  return {
    add,
    remove,
    has: (id) => slotById.has(id),
    get size() {
      return liveCount;
    },
    search,
    clear() {
      termIds.clear();
      postings = [];
      freeTermIds.length = 0;
      slotById.clear();
      ids = [];
      lengths = [];
      termsBySlot = [];
      freeSlots.length = 0;
      liveCount = 0;
      totalLength = 0;
      staleEntries = 0;
      liveEntries = 0;
    },
  };
}

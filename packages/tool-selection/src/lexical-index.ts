/**
 * A BM25 index over tool documents, incremental: add, replace and remove without rebuilding.
 * Terms are tokenised once at insert time into postings lists; a query touches only the postings of
 * its own terms and reuses its scratch arrays, so search cost grows with matches, not with tools.
 */

import { tokenize } from './text-tokens.js';
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

interface Postings {
  slots: number[];
  frequencies: number[];
  /** Live documents holding the term. */
  documentFrequency: number;
}

/** Creates an empty BM25 index. */
export function createLexicalIndex(options: LexicalIndexOptions = {}): LexicalIndex {
  const k1 = options.k1 ?? 1.5;
  const b = options.b ?? 0.75;
  const weights = {
    name: options.fieldWeights?.name ?? 2,
    title: options.fieldWeights?.title ?? 1,
    description: options.fieldWeights?.description ?? 1,
    parameters: options.fieldWeights?.parameters ?? 0.5,
    server: options.fieldWeights?.server ?? 0.5,
  };

  const postings = new Map<string, Postings>();
  const slotById = new Map<string, number>();
  let ids: Array<string | undefined> = [];
  let lengths: number[] = [];
  let termsBySlot: Array<string[] | undefined> = [];
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

  function termFrequencies(document: ToolDocument | string): Map<string, number> {
    const frequencies = new Map<string, number>();
    const addField = (text: string, weight: number) => {
      if (!text || weight <= 0) return;
      for (const term of tokenize(text)) frequencies.set(term, (frequencies.get(term) ?? 0) + weight);
    };
    if (typeof document === 'string') addField(document, 1);
    else {
      addField(document.name, weights.name);
      addField(document.title, weights.title);
      addField(document.description, weights.description);
      addField(document.parameters, weights.parameters);
      addField(document.server, weights.server);
    }
    return frequencies;
  }

  function remove(id: string): boolean {
    const slot = slotById.get(id);
    if (slot === undefined) return false;
    for (const term of termsBySlot[slot] ?? []) {
      const entry = postings.get(term);
      if (entry) entry.documentFrequency--;
    }
    staleEntries += termsBySlot[slot]?.length ?? 0;
    liveEntries -= termsBySlot[slot]?.length ?? 0;
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
    for (const [term, entry] of postings) {
      const slots: number[] = [];
      const frequencies: number[] = [];
      for (let index = 0; index < entry.slots.length; index++) {
        const slot = entry.slots[index] as number;
        if (ids[slot] !== undefined) {
          slots.push(slot);
          frequencies.push(entry.frequencies[index] as number);
        }
      }
      if (slots.length === 0) postings.delete(term);
      else {
        entry.slots = slots;
        entry.frequencies = frequencies;
      }
    }
    freeSlots.length = 0;
    for (let slot = 0; slot < ids.length; slot++) if (ids[slot] === undefined) freeSlots.push(slot);
    staleEntries = 0;
  }

  function add(id: string, document: ToolDocument | string): void {
    remove(id);
    const frequencies = termFrequencies(document);
    const slot = freeSlots.pop() ?? ids.length;
    ids[slot] = id;
    slotById.set(id, slot);
    let length = 0;
    const terms: string[] = [];
    for (const [term, frequency] of frequencies) {
      let entry = postings.get(term);
      if (!entry) {
        entry = { slots: [], frequencies: [], documentFrequency: 0 };
        postings.set(term, entry);
      }
      entry.slots.push(slot);
      entry.frequencies.push(frequency);
      entry.documentFrequency++;
      length += frequency;
      terms.push(term);
    }
    termsBySlot[slot] = terms;
    lengths[slot] = length;
    totalLength += length;
    liveEntries += terms.length;
    liveCount++;
    normsStale = true;
  }

  function search(query: string, searchOptions: { limit?: number } = {}): LexicalHit[] {
    const limit = searchOptions.limit ?? 10;
    if (liveCount === 0 || limit <= 0) return [];
    const terms = [...new Set(tokenize(query))];
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
      const entry = postings.get(term);
      if (!entry || entry.documentFrequency <= 0) continue;
      const df = entry.documentFrequency;
      const idf = Math.log(1 + (liveCount - df + 0.5) / (df + 0.5));
      const { slots, frequencies } = entry;
      for (let index = 0; index < slots.length; index++) {
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
      postings.clear();
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

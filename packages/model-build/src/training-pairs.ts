/**
 * Training pairs from labelled folders (query → each expected tool, BM25's best wrong tools as hard
 * negatives) and weak pairs from an unlabeled catalogue (a tool's name words → its description), so
 * that the words of real MCP tools are covered even where no labelled query uses them.
 */
import { createLexicalIndex } from '@switchboard/tool-selection';
import type { TrainingPair } from './contrastive-finetune.js';
import type { TrainingFolder } from './training-folder.js';

/** Token ids of a text, as the runtime tokenizer gives them. */
export type Encode = (text: string) => Int32Array;

/** Pairs and the documents they index. */
export interface TrainingSet {
  documents: Int32Array[];
  pairs: TrainingPair[];
}

/** Appends a labelled folder's pairs (group = its position in the set). */
export function addLabelledPairs(
  set: TrainingSet,
  folder: TrainingFolder,
  encode: Encode,
  hardNegatives: number,
): void {
  const first = set.documents.length;
  const group = new Set(set.pairs.map((pair) => pair.group)).size;
  for (const text of folder.texts) set.documents.push(encode(text));
  const lexical = createLexicalIndex();
  folder.documents.forEach((document, index) => {
    lexical.add(String(index), document);
  });
  const variant = folder.tools.map((tool) => tool.original_name ?? tool.name);
  for (const query of folder.queries) {
    const expected = query.expected.map((name) => folder.indexOf.get(name) as number);
    const answers = new Set(expected.map((index) => variant[index]));
    const positives = new Set<number>();
    variant.forEach((name, index) => {
      if (answers.has(name)) positives.add(first + index);
    });
    const hard = lexical
      .search(query.query, { limit: hardNegatives + positives.size })
      .map((hit) => first + Number(hit.id))
      .filter((document) => !positives.has(document))
      .slice(0, hardNegatives);
    const ids = encode(query.query);
    for (const index of expected)
      set.pairs.push({ query: ids, positive: first + index, positives, hardNegatives: hard, group });
  }
}

/** Appends weak pairs of an unlabeled catalogue: name words → description (first 400 characters). */
export function addCataloguePairs(
  set: TrainingSet,
  folder: TrainingFolder,
  encode: Encode,
  weight: number,
): void {
  const group = new Set(set.pairs.map((pair) => pair.group)).size;
  for (const document of folder.documents) {
    const description = document.description.slice(0, 400).trim();
    const name = document.name.trim();
    if (!description || !name) continue;
    const positive = set.documents.length;
    set.documents.push(encode(description));
    set.pairs.push({
      query: encode(name),
      positive,
      positives: new Set([positive]),
      hardNegatives: [],
      group,
      weight,
    });
  }
}

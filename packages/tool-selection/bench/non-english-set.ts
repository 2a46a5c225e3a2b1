/**
 * A small evaluation set of tools described in languages other than English, built from the real
 * MCP catalogue (`../shared/bench/train/mcp-catalogue/tools.jsonl`, unlabelled: no query of it was
 * used to choose anything), by a fixed rule so anyone can rebuild it:
 *
 * 1. A tool qualifies when the first sentence of its description (up to the first 。！？!?, newline,
 *    or ". ") holds at least 4 letters of one non-Latin script (Han, Hiragana/Katakana, Hangul,
 *    Cyrillic, Greek, Arabic, Hebrew, Thai, Devanagari); that script is its language.
 * 2. The sentence keeps only that script's letters and the spaces between them (Latin words, digits
 *    and punctuation go), so the query is in the tool's language alone.
 * 3. Query = a window of it: for text written with spaces, the words from 25 % to 85 % of the word
 *    count; otherwise the characters from 25 % to 85 % — a part of what the tool does, cut where a
 *    person's words would not be the description's (at least 4 characters, or 2 words).
 * 4. Sentences two tools share are dropped (the query would not say which); the tool stays in the
 *    index as a distractor. The whole catalogue (8,309 tools, mostly English) is the index.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetQuery, DatasetTool } from './dataset.js';

const scripts: ReadonlyArray<readonly [string, RegExp]> = [
  ['japanese', /[\p{Script=Hiragana}\p{Script=Katakana}]/gu],
  ['chinese', /\p{Script=Han}/gu],
  ['korean', /\p{Script=Hangul}/gu],
  ['cyrillic', /\p{Script=Cyrillic}/gu],
  ['greek', /\p{Script=Greek}/gu],
  ['arabic', /\p{Script=Arabic}/gu],
  ['hebrew', /\p{Script=Hebrew}/gu],
  ['thai', /\p{Script=Thai}/gu],
  ['devanagari', /\p{Script=Devanagari}/gu],
];

/** Letters each language's queries keep (Japanese text mixes kana and Han). */
const kept: Record<string, RegExp> = {
  japanese: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}\u30fc\s]/u,
  chinese: /[\p{Script=Han}\s]/u,
  korean: /[\p{Script=Hangul}\s]/u,
};

/** A query of the set, with the language it is in. */
export interface NonEnglishQuery extends DatasetQuery {
  language: string;
}

/** The catalogue's tools (the index) and the non-English queries built from them. */
export function buildNonEnglishSet(catalogueFolder: string): {
  tools: DatasetTool[];
  queries: NonEnglishQuery[];
} {
  const tools = readFileSync(join(catalogueFolder, 'tools.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DatasetTool);
  const candidates: Array<{ tool: DatasetTool; sentence: string; language: string }> = [];
  for (const tool of tools) {
    const sentence = (tool.description ?? '').split(/[。！？!?\n]|\. /u, 1)[0]?.trim() ?? '';
    const language = scripts.find(([, pattern]) => (sentence.match(pattern)?.length ?? 0) >= 4)?.[0];
    if (language !== undefined) candidates.push({ tool, sentence, language });
  }
  const sentenceCount = new Map<string, number>();
  for (const { sentence } of candidates) sentenceCount.set(sentence, (sentenceCount.get(sentence) ?? 0) + 1);
  const queries: NonEnglishQuery[] = [];
  for (const { tool, sentence, language } of candidates) {
    if (sentenceCount.get(sentence) !== 1) continue;
    const query = windowOf(keepScript(sentence, language));
    if (query !== undefined) queries.push({ query, expected: [tool.name], language });
  }
  return { tools, queries };
}

function keepScript(sentence: string, language: string): string {
  const pattern = kept[language] ?? (scripts.find(([name]) => name === language)?.[1] as RegExp);
  const single = new RegExp(pattern.source.replace(/^\[/, '[\\s'), 'u');
  return Array.from(sentence, (character) => (single.test(character) ? character : ' '))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

function windowOf(text: string): string | undefined {
  const words = text.split(' ').filter(Boolean);
  if (words.length >= 3) {
    const window = words.slice(Math.floor(words.length * 0.25), Math.ceil(words.length * 0.85));
    return window.length >= 2 ? window.join(' ') : undefined;
  }
  const characters = Array.from(text.replace(/ /g, ''));
  const window = characters.slice(Math.floor(characters.length * 0.25), Math.ceil(characters.length * 0.85));
  return window.length >= 4 ? window.join('') : undefined;
}

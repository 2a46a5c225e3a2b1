/** Splits text into lower-case search terms, for BM25 and for matching categories in context. */

// Words that carry no meaning for picking a tool; dropping them keeps postings short.
const stopWords = new Set(
  (
    'a an and are as at be by can could do does for from get give has have how i if in into is it its me my ' +
    'need of on or our please show some than that the their them then there these this to us use using want ' +
    'was we what when where which who will with would you your'
  ).split(' '),
);

/** Options of {@link tokenize}. */
export interface TokenizeOptions {
  /** Keep stop words. @default false */
  keepStopWords?: boolean;
}

/**
 * Lower-case terms of `text`: splits on anything not a letter or digit, and inside words on case
 * changes (`readFile`, `HTTPServer`) and letter/digit boundaries; strips a plural `s`.
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const terms: string[] = [];
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([a-zA-Z])/g, '$1 $2')
    .toLowerCase();
  for (const raw of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length === 0) continue;
    if (!options.keepStopWords && stopWords.has(raw)) continue;
    terms.push(stem(raw));
  }
  return terms;
}

/** A light stemmer: enough to match "files" with "file" and "searching" with "search". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

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
  /**
   * Terms of words with letters beyond ASCII: `'ngrams'` splits scripts written without spaces
   * (Chinese, Japanese, Korean, Thai, …) into overlapping character pairs and adds a 5-letter prefix
   * to other words (Russian, Greek, accented Latin, …), so inflected forms meet; `'words'` keeps
   * each run of letters as one term (before 0.x: a Chinese sentence was one term). ASCII words are
   * the same either way. @default 'ngrams'
   */
  nonLatin?: 'ngrams' | 'words';
}

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const OTHER_WORD = 4;
const wordCharacter = /[\p{L}\p{N}]/u;

function kind(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code < 128) return 0;
  return wordCharacter.test(text[index] as string) ? OTHER_WORD : 0;
}

/**
 * Lower-case terms of `text`: splits on anything not a letter or digit, and inside words on case
 * changes (`readFile`, `HTTPServer`) and letter/digit boundaries; strips a plural `s`.
 * One pass over the characters, no regular expressions for ASCII: indexing thousands of tools and
 * every query goes through here.
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const terms: string[] = [];
  const keepStopWords = options.keepStopWords === true;
  const ngrams = options.nonLatin !== 'words';
  const length = text.length;
  let nonAscii = false;
  let start = -1;
  let previous = 0;
  for (let index = 0; index <= length; index++) {
    const current = index < length ? kind(text, index) : 0;
    let boundary = current === 0;
    if (!boundary && start !== -1) {
      const letterDigitBoundary = (current === DIGIT) !== (previous === DIGIT);
      const camelBoundary = current === UPPER && previous === LOWER;
      // "HTTPServer": the last capital of a run starts the next word when a lower-case letter follows.
      const acronymBoundary =
        current === UPPER && previous === UPPER && index + 1 < length && kind(text, index + 1) === LOWER;
      boundary = letterDigitBoundary || camelBoundary || acronymBoundary;
    }
    if (boundary && start !== -1) {
      const raw = text.slice(start, index).toLowerCase();
      if (nonAscii && ngrams) pushNonLatinTerms(raw, terms);
      else if (keepStopWords || !stopWords.has(raw)) terms.push(stemCached(raw));
      start = -1;
      nonAscii = false;
    }
    if (current !== 0 && start === -1) start = index;
    if (current === OTHER_WORD) nonAscii = true;
    previous = current;
  }
  return terms;
}

// Scripts written without spaces between words: a run of them is one "word" to the splitter above.
const unspacedScript =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc]/u;

/** Letters of a prefix term: long enough to keep a stem apart, short enough to drop most endings. */
const PREFIX_LENGTH = 5;

/**
 * Terms of a word with letters beyond ASCII. Runs of an unspaced script become overlapping
 * character pairs ("天气预报" → 天气, 气预, 预报), the standard for CJK search without a
 * dictionary: a query shares pairs with a description even when its words are cut differently.
 * Other runs (Cyrillic, Greek, accented Latin, ASCII inside a CJK run) keep the word and, when
 * longer, add its first letters as a term, so "посылки" and "посылку" meet.
 */
function pushNonLatinTerms(word: string, terms: string[]): void {
  const characters = Array.from(word);
  let run: string[] = [];
  let unspaced = false;
  const flush = () => {
    if (run.length === 0) return;
    if (unspaced) {
      if (run.length === 1) terms.push(run[0] as string);
      for (let index = 0; index + 1 < run.length; index++) terms.push(`${run[index]}${run[index + 1]}`);
    } else {
      const text = run.join('');
      terms.push(stemCached(text));
      if (run.length > PREFIX_LENGTH && !isAscii(text)) terms.push(run.slice(0, PREFIX_LENGTH).join(''));
    }
    run = [];
  };
  for (const character of characters) {
    const isUnspaced = unspacedScript.test(character);
    if (run.length > 0 && isUnspaced !== unspaced) flush();
    unspaced = isUnspaced;
    run.push(character);
  }
  flush();
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 127) return false;
  return true;
}

// Words repeat (a catalogue has a few thousand distinct ones): remembering their stems made
// tokenising the documents of the 2,123 StableToolBench tools a third faster (15 → 10 ms; 100,000 bench tools: 683 → 464 ms). Bounded: emptied when full.
const stems = new Map<string, string>();
const STEM_CACHE_SIZE = 50_000;
function stemCached(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = stem(word);
    if (stems.size >= STEM_CACHE_SIZE) stems.clear();
    stems.set(word, stemmed);
  }
  return stemmed;
}

const vowel = /[aeiouy]/;

/**
 * A light stemmer (roughly Porter's step 1): plural and -ed/-ing endings, so that "files" matches
 * "file", "searching" matches "search" and "planned" matches "plan".
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  let result = word;
  if (result.endsWith('sses')) result = result.slice(0, -2);
  else if (result.endsWith('ies')) result = `${result.slice(0, -3)}y`;
  else if (result.endsWith('ss') || result.endsWith('us') || result.endsWith('is')) return result;
  else if (result.endsWith('s')) result = result.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (result.length > suffix.length + 2 && result.endsWith(suffix)) {
      const base = result.slice(0, -suffix.length);
      if (!vowel.test(base)) break;
      const last = base[base.length - 1] as string;
      const beforeLast = base[base.length - 2] as string;
      // "planned" -> "plan"; "filled" keeps "fill"
      if (last === beforeLast && !'lsz'.includes(last)) return base.slice(0, -1);
      // "created" -> "creat", as "create" -> "creat" below, so both meet
      return base;
    }
  }
  if (result.endsWith('e') && result.length > 4) return result.slice(0, -1);
  return result;
}

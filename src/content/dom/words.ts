/** A word, as every count and comparison of words in content selection reads it. */
const WORD = /[\p{L}\p{N}]+/gu;

/** The words of `text`, lower-cased. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Per code point of the first plane: 0 not yet asked, 1 a word's character, 2 not. */
const inWordOf = new Uint8Array(0x10000);

/** Is the code point a letter or a digit, as WORD reads it? */
function inWord(code: number): boolean {
  if (code >= 0x10000) return WORD_CHAR.test(String.fromCodePoint(code));
  let known = inWordOf[code]!;
  if (!known) {
    known = WORD_CHAR.test(String.fromCharCode(code)) ? 1 : 2;
    inWordOf[code] = known;
  }
  return known === 1;
}

/**
 * How many runs of WORD `text` holds: the same count as matching it, without an array of every
 * word (the count is taken of every block of every page, and most blocks are paragraphs).
 */
export function wordCount(text: string): number {
  let words = 0;
  let inside = false;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    const letter = inWord(code);
    if (letter && !inside) words++;
    inside = letter;
  }
  return words;
}

/** Runs of this many words compare two texts: shorter runs are phrases any page shares. */
const RUN = 4;

/** The runs of four words of `words`, each once. */
export function wordRuns(words: readonly string[]): Set<string> {
  const runs = new Set<string>();
  for (let i = 0; i + RUN <= words.length; i++) runs.add(words.slice(i, i + RUN).join(' '));
  return runs;
}

/** The share of `runs` that `among` holds (0 for none). */
export function shareOf(runs: ReadonlySet<string>, among: ReadonlySet<string>): number {
  let held = 0;
  for (const run of runs) if (among.has(run)) held++;
  return runs.size ? held / runs.size : 0;
}

import { codePointClass } from './code-points.ts';

/** A word, as every count and comparison of words in content selection reads it. */
const WORD = /[\p{L}\p{N}]+/gu;

/** The words of `text`, lower-cased. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

const inWord = codePointClass(/^[\p{L}\p{N}]$/u);

/**
 * How many runs of WORD `text` holds: the same count as matching it, without an array of every
 * word (the count is taken of every block of every page, and most blocks are paragraphs).
 */
export function wordCount(text: string): number {
  let words = 0;
  let inside = false;
  // codePointAt reads a surrogate pair as the code point it encodes and a lone half as itself, as
  // the pattern's `u` flag does.
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
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

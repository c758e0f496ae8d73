/** A word, as every count and comparison of words in content selection reads it. */
const WORD = /[\p{L}\p{N}]+/gu;

/** The words of `text`, lower-cased. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

export const wordCount = (text: string): number => text.match(WORD)?.length ?? 0;

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

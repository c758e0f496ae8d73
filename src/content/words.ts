/** A word, as every count and comparison of words in content selection reads it. */
const WORD = /[\p{L}\p{N}]+/gu;

/** The words of `text`, lower-cased. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

export const wordCount = (text: string): number => text.match(WORD)?.length ?? 0;

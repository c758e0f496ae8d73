/**
 * What a block's text holds, counted in one pass: the classifier reads these of every block of
 * every page, and matching each pattern built an array of every match only to count it.
 */
import { codePointClass, isSpace } from '../dom/index.ts';

const isNumber = codePointClass(/^\p{N}$/u);

/** Ends a sentence when white space or the end of the text follows. */
const SENTENCE_MARKS = new Set(['.', '!', '?', '。', '！', '？'].map((c) => c.charCodeAt(0)));
const CLAUSE_MARKS = new Set([',', ';', ':'].map((c) => c.charCodeAt(0)));

export interface TextCounts {
  /** Code points that are numbers (`\p{N}`). */
  digits: number;
  /** Sentence marks followed by white space or the end (`/[.!?。！？](?:\s|$)/g`). */
  sentenceEnds: number;
  /** Commas, semicolons and colons. */
  clauseMarks: number;
}

/** The counts the patterns in `TextCounts` give, matched over `text`. */
export function textCounts(text: string): TextCounts {
  let digits = 0;
  let sentenceEnds = 0;
  let clauseMarks = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    if (CLAUSE_MARKS.has(code)) clauseMarks++;
    else if (SENTENCE_MARKS.has(code)) {
      if (i === text.length || isSpace(text.charCodeAt(i))) sentenceEnds++;
    } else if (isNumber(code)) digits++;
  }
  return { digits, sentenceEnds, clauseMarks };
}

/** Anything `spaced` would change: white space other than one space between words. */
const UNEVEN_SPACE = /[^\S ]| {2}|^ | $/;

/** The text with its white space collapsed to single spaces and trimmed. */
export function spaced(text: string): string {
  // Most blocks' text is already so; the replacement copied every one.
  return UNEVEN_SPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

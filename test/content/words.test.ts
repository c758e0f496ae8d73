import { describe, expect, it } from 'vitest';
import { trimmedLength, wordCount } from '../../src/content/dom/index.ts';

/** The definition wordCount counts without building: runs of letters and digits. */
const matched = (text: string) => text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;

describe('wordCount', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['one', 1],
    ['two words', 2],
    ['co-operate, e.g. 3.14', 6],
    ['naïve café', 2],
    // A combining accent is a mark, not a letter: it splits a word in two.
    ['cafe\u0301s au lait', 4],
    ['中文字 ㄱ ٣٤', 3],
    // Letters and digits outside the first plane, one code point of two halves each.
    ['\u{1d400}\u{1d401} \u{1d7cf}x', 2],
    ['\u{1f600} smile', 1],
    // A lone half of a pair is no letter.
    ['a\ud800b \udc00c', 3],
  ])('counts %j as %i words, as matching it does', (text, words) => {
    expect(wordCount(text)).toBe(words);
    expect(wordCount(text)).toBe(matched(text));
  });
});

describe('trimmedLength', () => {
  it.each([
    '',
    '   ',
    'word',
    '  padded  ',
    '\n\ttabs and lines\r\n',
    '\u00a0no-break\u3000ideographic\u2028',
    '\ufeffmarked\ufeff',
    '\u200bzero width is not space\u200b',
  ])('reads %j as trim does', (text) => {
    expect(trimmedLength(text)).toBe(text.trim().length);
  });
});

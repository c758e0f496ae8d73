import { describe, expect, it } from 'vitest';
import { spaced, textCounts } from '../../src/content/main/block-text.ts';

/** The patterns the counts stand for, matched as before. */
const matched = (text: string) => ({
  digits: text.match(/\p{N}/gu)?.length ?? 0,
  sentenceEnds: text.match(/[.!?。！？](?:\s|$)/g)?.length ?? 0,
  clauseMarks: text.match(/[,;:]/g)?.length ?? 0,
});

const TEXTS = [
  '',
  'No marks at all',
  'One sentence. Two sentences! Three? And the end.',
  'Version 2.5.1 costs $1,299.99; see p. 3:14',
  'Ends without space.Then goes on...',
  '三つの文。二つ目！ 三つ目？',
  'Fractions ½ and ⅓, Roman Ⅻ, Arabic ٣٤, math 𝟏𝟐.',
  'Tabs\tand\u00a0no-break. Line\nbreaks.\u2028',
];

describe('textCounts', () => {
  it.each(TEXTS)('counts %j as the patterns do', (text) => {
    expect(textCounts(text)).toEqual(matched(text));
  });

  it('counts what it is for', () => {
    expect(textCounts('It costs 12, or 15; ask. Now!')).toEqual({
      digits: 4,
      sentenceEnds: 2,
      clauseMarks: 2,
    });
  });
});

describe('spaced', () => {
  it.each([
    ...TEXTS,
    ' leading',
    'trailing ',
    'two  spaces',
    'a\u00a0b',
    '\ufeffmarked',
    'already spaced text',
  ])('collapses and trims %j as replace and trim do', (text) => {
    expect(spaced(text)).toBe(text.replace(/\s+/g, ' ').trim());
  });
});

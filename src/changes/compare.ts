import { createTwoFilesPatch } from 'diff';

/**
 * Parts of a page that change on every visit without the page changing: clock times, dates
 * printed as "today", and counters of views, comments, likes or visitors. They are masked before
 * comparing; other numbers (prices, versions, figures) are the content people track and are kept.
 */
const VOLATILE: RegExp[] = [
  /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?\b/gi,
  /\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?\b/gi,
  /\b\d[\d,.\s]*\s*(?:views?|comments?|likes?|shares?|visitors?|reads?|readers?|online)\b/gi,
  /\b(?:views?|comments?|likes?|visitors?|online)\s*:?\s*\d[\d,.]*/gi,
];

/** The markdown as compared: each line's whitespace collapsed, blank lines dropped, volatile parts masked. */
export function comparable(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) =>
      VOLATILE.reduce((l, re) => l.replace(re, '#'), line)
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean)
    .join('\n');
}

/** Whether two snapshots differ in more than whitespace and volatile parts. */
export function hasChanged(before: string, after: string): boolean {
  return comparable(before) !== comparable(after);
}

/** A unified diff of two snapshots' markdown, each line's whitespace collapsed and blank lines dropped. */
export function gitDiff(before: string, after: string): string {
  const tidy = (md: string) =>
    `${md
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .join('\n')}\n`;
  return createTwoFilesPatch('previous', 'current', tidy(before), tidy(after), '', '', {
    context: 3,
  });
}

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

/** One field of an extraction that changed, as Firecrawl's json mode reports it. */
export interface FieldChange {
  previous: unknown;
  current: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields two extractions differ in, by dotted path (array items by index, `.` for a whole
 * value that is no object): objects are walked key by key, anything else is compared whole, so
 * a list that changed reports its changed items and the one added or gone.
 */
export function changedFields(previous: unknown, current: unknown): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  const walk = (before: unknown, after: unknown, path: string) => {
    const walkable =
      (isRecord(before) && isRecord(after)) || (Array.isArray(before) && Array.isArray(after));
    if (!walkable) {
      if (JSON.stringify(before) !== JSON.stringify(after))
        changes[path || '.'] = { previous: before ?? null, current: after ?? null };
      return;
    }
    const a = before as Record<string, unknown>;
    const b = after as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      walk(a[key], b[key], path ? `${path}.${key}` : key);
  };
  walk(previous, current, '');
  return changes;
}

import { shareOf, wordRuns, wordsOf } from '../dom/index.ts';
import type { BlockFacts } from './blocks.ts';

/** At or above this share of its runs of words already kept, a block repeats the content. */
const SAID_BEFORE = 0.8;

/** Fewer words are a quoted "thanks", a name or a label, whatever they repeat. */
const MIN_WORDS = 8;

/**
 * Drops kept blocks that repeat what the kept content has already said, where the page marks one
 * copy as a copy:
 * - a quote (`<blockquote>`, or markup named as a quote or a preview cut to a line: `quoted`
 *   in `blocks.ts`): a forum reply quoting an earlier post of the thread, which the reader has a
 *   few lines up;
 * - a block in markup shown at one screen size (`viewport`): shops and landing pages print a
 *   description once for phones and once for desktops and let the stylesheet, which we do not
 *   read, hide one. Either copy may carry the mark; the first one kept stays.
 * The block classifier cannot learn either (the copy's words are the original's, content by every
 * measure of a block alone). Text repeated without such a mark stays: an API reference describes
 * the same parameter under every method that takes it, and tabs repeat their steps per platform.
 * A quote of what the content does not hold (an earlier page of the thread, another site) stays.
 */
export function dropRepeatedText(
  blocks: readonly Pick<BlockFacts, 'text' | 'quoted' | 'viewport'>[],
  keep: boolean[],
): void {
  // Only a quote or a one-screen copy is ever dropped, and only after such a block has been
  // met: a page without one (most) keeps every block, and its runs need not be counted.
  if (!blocks.some((b, i) => keep[i] && (b.quoted || b.viewport))) return;
  const said = new Set<string>();
  const saidInViewport = new Set<string>();
  blocks.forEach(({ text, quoted, viewport }, i) => {
    if (!keep[i]) return;
    const words = wordsOf(text);
    const runs = wordRuns(words);
    if (
      words.length >= MIN_WORDS &&
      (((quoted || viewport) && shareOf(runs, said) >= SAID_BEFORE) ||
        shareOf(runs, saidInViewport) >= SAID_BEFORE)
    ) {
      keep[i] = false;
      return;
    }
    for (const run of runs) said.add(run);
    if (viewport) for (const run of runs) saidInViewport.add(run);
  });
}

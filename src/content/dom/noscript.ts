import { shareOf, wordRuns, wordsOf } from './words.ts';

/**
 * More words than a "please enable JavaScript" plea (the longest of the 1,657 data-set pages'
 * holds 43), a country form or a tracking pixel's markup written as text: a no-script rendering.
 */
const COPY_WORDS = 50;

/** At or above this share of its runs already on the page, a no-script rendering is a second copy. */
const ALREADY_SHOWN = 0.5;

/** Inside a `<noscript>`, never text: a lazy stylesheet (`<noscript><style>`) or a script. */
const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'TEMPLATE']);

/** Elements whose text a browser with scripts on never shows (a page's readable text leaves them out). */
export const NOT_SHOWN = new Set([...NOT_TEXT, 'NOSCRIPT']);

/** Text a reader could see under `node`, skipping what `skip` names. */
function textOf(node: Node, skip: Set<string>): string {
  let text = '';
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) text += ` ${(child as Text).data}`;
    else if (child.nodeType === 1 && !skip.has(child.nodeName)) text += textOf(child, skip);
  }
  return text;
}

/** From the root element: linkedom's document links its first child to no next sibling. */
const top = (root: ParentNode): Node =>
  (root as Document).documentElement ?? (root as unknown as Node);

/**
 * Reads what a `<noscript>` renders only where the page lacks it. Script-driven sites (Discourse
 * and the like) print the whole readable page there for crawlers, and a saved page outside it is
 * an empty app: that copy is the content. Others print a copy of what the page already shows (an
 * article written twice, a shop's variants), and a browser-rendered page holds both the app's
 * rendering and, as markup, its `<noscript>`: keeping both gave the content twice. Small ones hold
 * tracking pixels and "enable JavaScript". A browser with scripts on shows none of them.
 *
 * A rendering of content the page lacks is unwrapped; every other `<noscript>` is left for the
 * reader of the tree to drop. `noscripts` are the root's, in document order, for a caller that
 * has walked the tree already.
 */
export function resolveNoscripts(
  root: ParentNode,
  noscripts: readonly Element[] = [...root.querySelectorAll('noscript')],
): void {
  if (noscripts.length === 0) return;
  let shown: Set<string> | undefined;
  for (const el of noscripts) {
    if (!el.isConnected) continue;
    const words = wordsOf(textOf(el, NOT_TEXT));
    if (words.length < COPY_WORDS) continue;
    // The page as a browser with scripts on shows it, then each copy as it is unwrapped: two
    // copies of one rendering are one.
    shown ??= wordRuns(wordsOf(textOf(top(root), NOT_SHOWN)));
    const runs = wordRuns(words);
    if (shareOf(runs, shown) >= ALREADY_SHOWN) continue;
    for (const run of runs) shown.add(run);
    el.replaceWith(...el.childNodes);
  }
}

/**
 * Which reading of a page wins: the block classifier's kept blocks or Readability's pick. Decided
 * from counts alone, so the converter and the training script (which scores the held-out folds
 * with the routing that ships) make the same choice.
 */

/** When the classifier's pick gives way to Readability's; fitted on training pages by train.ts. */
export interface RoutePolicy {
  /** Below this many kept words the classifier's pick is short enough to doubt. */
  shortWords: number;
  /** ...and Readability wins a doubted pick when its own has this many times the words. */
  ratio: number;
}

/** What the classifier kept, in numbers. */
export interface KeptSummary {
  words: number;
  chars: number;
  linkChars: number;
}

/**
 * Above this share of link text, what the classifier kept reads as a menu, not content. Chosen
 * high so link-list pages (listings, collections) stay with the classifier: on a WCXB sample
 * and on article-extraction, 0.85 helped both sets, lower shares cost WCXB listings.
 */
const MENU_LINK_SHARE = 0.85;

/** Kept almost only link text (a menu), or nothing at all. */
function keptNoContent(kept: KeptSummary): boolean {
  return kept.words === 0 || kept.linkChars >= MENU_LINK_SHARE * kept.chars;
}

/** Is Readability worth running: is the classifier's pick a menu, nothing, or short? */
export function doubtsClassifier(policy: RoutePolicy, kept: KeptSummary): boolean {
  return keptNoContent(kept) || kept.words < policy.shortWords;
}

/**
 * Does Readability's pick (of `readabilityWords` words) replace the classifier's? Any pick beats
 * a menu or nothing; a short pick gives way to one at least `ratio` times as long, since the
 * classifier cutting a page's content down to a few lines is its commonest way of failing a page.
 */
export function readabilityWins(policy: RoutePolicy, kept: KeptSummary, readabilityWords: number): boolean {
  if (readabilityWords === 0) return false;
  if (keptNoContent(kept)) return true;
  return kept.words < policy.shortWords && readabilityWords >= policy.ratio * kept.words;
}

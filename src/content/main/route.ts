/**
 * Which reading of a page wins: the block classifier's kept blocks or Readability's pick. Decided
 * from counts alone, so the converter and the training script (which scores the held-out folds
 * with the routing that ships) make the same choice.
 */
import { wordsOf } from '../dom/index.ts';

/** A policy term at this value never fires: a page of that many words, an agreement above 1. */
export const NEVER = 1e9;

/** When Readability's pick replaces the classifier's; fitted on training pages by train.ts. */
export interface RoutePolicy {
  /** Below this many kept words the classifier's pick is short enough to doubt. */
  shortWords: number;
  /** ...and Readability wins a doubted pick when its own has this many times the words. */
  ratio: number;
  /** On a page that declares itself an article, a Readability pick this long wins unread by the classifier. */
  declaredWords: number;
  /** Otherwise a declared article's pick wins when it holds this share of the classifier's kept words. */
  declaredAgreement: number;
  /**
   * Readability's pick replaces a pick of almost only link text when it has at least this share of
   * that pick's words: a menu gives way to a story, a listing's cards do not give way to its caption.
   */
  menuRatio: number;
}

/** What the classifier kept, in numbers. */
export interface KeptSummary {
  words: number;
  chars: number;
  linkChars: number;
}

/** The two readings of a page, in numbers. */
export interface Readings {
  declaresArticle: boolean;
  kept: KeptSummary;
  readabilityWords: number;
  /** Share of the classifier's kept words that Readability's pick holds too (agreement()). */
  agreement: number;
}

/**
 * Above this share of link text, what the classifier kept reads as a menu, not content. Chosen
 * high so link-list pages (listings, collections) stay with the classifier: on a WCXB sample
 * and on article-extraction, 0.85 helped both sets, lower shares cost WCXB listings.
 */
const MENU_LINK_SHARE = 0.85;

/** Kept almost only link text: a menu, or a listing's cards. */
function keptLinks(kept: KeptSummary): boolean {
  return kept.words > 0 && kept.linkChars >= MENU_LINK_SHARE * kept.chars;
}

/** Can a declared article's pick win before the classifier reads the page? Only then is it read first. */
export function readsDeclaredFirst(policy: RoutePolicy): boolean {
  return policy.declaredWords < NEVER;
}

/** Does a declared article's Readability pick of `readabilityWords` words win before the classifier runs? */
export function declaredPickWins(
  policy: RoutePolicy,
  declaresArticle: boolean,
  readabilityWords: number,
): boolean {
  return declaresArticle && readabilityWords > 0 && readabilityWords >= policy.declaredWords;
}

/** Is Readability worth running after the classifier: a declared article, or a menu, nothing, or a short pick? */
export function doubtsClassifier(
  policy: RoutePolicy,
  declaresArticle: boolean,
  kept: KeptSummary,
): boolean {
  return (
    (declaresArticle && policy.declaredAgreement <= 1) ||
    kept.words === 0 ||
    keptLinks(kept) ||
    kept.words < policy.shortWords
  );
}

/**
 * Does Readability's pick replace the classifier's? Any pick beats nothing, and a menu gives way to
 * a pick of `menuRatio` of its words; a declared article's pick wins when it holds most of what the
 * classifier kept (it then trims the same content more tightly); a short pick gives way to one at
 * least `ratio` times as long, since the classifier cutting a page's content down to a few lines
 * is its commonest way of failing a page.
 */
export function readabilityWins(policy: RoutePolicy, r: Readings): boolean {
  if (r.readabilityWords === 0) return false;
  if (declaredPickWins(policy, r.declaresArticle, r.readabilityWords) || r.kept.words === 0)
    return true;
  if (keptLinks(r.kept) && r.readabilityWords >= policy.menuRatio * r.kept.words) return true;
  if (r.declaresArticle && r.agreement >= policy.declaredAgreement) return true;
  return r.kept.words < policy.shortWords && r.readabilityWords >= policy.ratio * r.kept.words;
}

/** Share of the words of `kept` (the classifier's pick) that `picked` (Readability's) holds too. */
export function agreement(kept: string, picked: string): number {
  const want = wordsOf(kept);
  if (!want.length) return 0;
  const have = new Set(wordsOf(picked));
  return want.filter((w) => have.has(w)).length / want.length;
}

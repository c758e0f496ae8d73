/**
 * Removes what is never main content before the blocks are scored: cookie banners, share bars,
 * newsletter boxes and hidden markup would otherwise skew the scores of the blocks around them
 * (or end up in the output when they sit inside the article). Navigation, asides, footers,
 * forum replies and comments are left to the block classifier: on some pages they are the content.
 */

/** Never content, whatever the page. */
const ALWAYS_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'CANVAS',
  'DIALOG',
  'BUTTON',
  'SELECT',
  'TEXTAREA',
  'INPUT',
]);
const DIALOG_ROLES = new Set(['dialog', 'alertdialog']);

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * class/id words of furniture, matched where a class name or id starts ("cookie-notice",
 * "share_bar", "ad"), since compounds such as "article-overlay-handle" name content.
 */
const FURNITURE =
  /(?:^|\s)(?:cookie|cookies|consent|gdpr|newsletter|subscribe|subscription|signup|share|sharing|social|socials|sharebar|advert|advertisement|ads|ad|adsense|dfp|sponsored|promo|promotion|popup|modal|overlay|related|recommended|skip-link|skiplink|breadcrumb|breadcrumbs|paywall|banner-ad|outbrain|taboola)(?=$|[\s_-])/i;

/** Never removed by class/id: containers whose names often also carry a furniture word. */
const PROTECTED = new Set(['HTML', 'BODY', 'MAIN', 'ARTICLE']);

/** More text than a "please enable JavaScript" notice: a no-script rendering of the page. */
const NOSCRIPT_CONTENT_CHARS = 200;

/** How much `stripBoilerplate` trusts an <article> to hold only content. */
export interface StripOptions {
  /**
   * Leave class/id furniture inside an <article> in place. Before Readability: its own scoring
   * weighs those blocks inside the article (captions, asides, "related" teasers that hold
   * article text), and removing them first cost recall on declared articles.
   */
  trustArticle?: boolean;
}

function isFurniture(el: Element, options: StripOptions): boolean {
  const tag = el.tagName;
  if (ALWAYS_TAGS.has(tag)) return true;
  if (
    el.hasAttribute('hidden') ||
    el.getAttribute('aria-hidden') === 'true' ||
    el.getAttribute('aria-modal') === 'true'
  )
    return true;
  const role = el.getAttribute('role');
  if (role && DIALOG_ROLES.has(role)) return true;
  const style = el.getAttribute('style');
  if (style && HIDDEN_STYLE.test(style)) return true;
  if (PROTECTED.has(tag)) return false;
  const id = el.getAttribute('id');
  const cls = el.getAttribute('class');
  // A wrapper that merely carries such a word (a theme's "has-social" body div) holds the page.
  return (
    !!(id || cls) &&
    FURNITURE.test(`${id ?? ''} ${cls ?? ''}`) &&
    !el.querySelector('main, article, h1') &&
    !(options.trustArticle && el.closest('article'))
  );
}

/**
 * One walk over the tree rather than a query per rule: on linkedom each selector query is a
 * full traversal, and this runs on every page.
 */
export function stripBoilerplate(root: ParentNode, options: StripOptions = {}): void {
  for (const el of [...root.querySelectorAll('*')]) {
    if (el.tagName === 'NOSCRIPT') {
      // Script-driven sites (Discourse and the like) put the whole readable page in <noscript>
      // for crawlers; that copy is the content. Small ones hold tracking pixels and notices.
      if ((el.textContent ?? '').trim().length > NOSCRIPT_CONTENT_CHARS)
        el.replaceWith(...el.childNodes);
      else el.remove();
    } else if (isFurniture(el, options)) {
      el.remove();
    }
  }
}

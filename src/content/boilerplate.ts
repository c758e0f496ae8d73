/**
 * Removes page furniture before main content is chosen. Readability scores what it is given, and
 * cookie banners, share bars, newsletter boxes and hidden markup skew its choice (or end up in
 * the output when they sit inside the article). Forum replies and comments are kept here: on
 * many pages they are the content.
 */

/** Never content, whatever the page. */
const ALWAYS = [
  'script',
  'style',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'dialog',
  'button',
  'select',
  'textarea',
  'input',
  '[hidden]',
  '[aria-hidden="true"]',
  '[role="dialog"]',
  '[role="alertdialog"]',
  '[aria-modal="true"]',
].join(',');

/** Site chrome: dropped when the page marks its main region elsewhere or when falling back. */
const CHROME = ['nav', 'aside', 'footer', '[role="navigation"]', '[role="banner"]', '[role="contentinfo"]', '[role="complementary"]', '[role="search"]'].join(',');

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * class/id words of furniture, matched where a class name or id starts ("cookie-notice",
 * "share_bar", "ad"), since compounds such as "article-overlay-handle" name content.
 */
const FURNITURE =
  /(?:^|\s)(?:cookie|cookies|consent|gdpr|newsletter|subscribe|subscription|signup|share|sharing|social|socials|sharebar|advert|advertisement|ads|ad|adsense|dfp|sponsored|promo|promotion|popup|modal|overlay|related|recommended|skip-link|skiplink|breadcrumb|breadcrumbs|paywall|banner-ad|outbrain|taboola)(?=$|[\s_-])/i;

/** Never removed by class/id: containers whose names often also carry a furniture word. */
const PROTECTED = new Set(['HTML', 'BODY', 'MAIN', 'ARTICLE']);

function remove(nodes: Iterable<Element>): void {
  for (const el of nodes) el.remove();
}

/** More text than a "please enable JavaScript" notice: a no-script rendering of the page. */
const NOSCRIPT_CONTENT_CHARS = 200;

export function stripBoilerplate(root: ParentNode, opts: { chrome: boolean }): void {
  // Script-driven sites (Discourse and the like) put the whole readable page in <noscript> for
  // crawlers; that copy is the content. Small ones hold tracking pixels and notices.
  for (const el of [...root.querySelectorAll('noscript')]) {
    if ((el.textContent ?? '').trim().length > NOSCRIPT_CONTENT_CHARS) el.replaceWith(...el.childNodes);
    else el.remove();
  }
  remove([...root.querySelectorAll(ALWAYS)]);
  if (opts.chrome) remove([...root.querySelectorAll(CHROME)]);
  for (const el of [...root.querySelectorAll('[style]')]) {
    if (HIDDEN_STYLE.test(el.getAttribute('style') ?? '')) el.remove();
  }
  for (const el of [...root.querySelectorAll('[class],[id]')]) {
    if (PROTECTED.has(el.tagName)) continue;
    const names = `${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`;
    // A wrapper that merely carries such a word (a theme's "has-social" body div) holds the page.
    if (FURNITURE.test(names) && !el.querySelector('main, article, h1')) el.remove();
  }
}

import {
  isEmbeddedPlayer,
  NOT_SHOWN,
  resolveNoscripts,
  trimmedLength,
  wordCount,
} from '../dom/index.ts';

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
  // Left by resolveNoscripts: a tracking pixel, "enable JavaScript", a copy the page already shows.
  'NOSCRIPT',
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
 * "share_bar", "ad"), since compounds such as "article-overlay-handle" name content. These are
 * never an article's text, wherever they stand.
 */
const FURNITURE =
  /(?:^|\s)(?:cookie|cookies|consent|gdpr|newsletter|subscribe|subscription|signup|advert|advertisement|ads|ad|adsense|dfp|sponsored|popup|modal|overlay|skip-link|skiplink|breadcrumb|breadcrumbs|banner-ad|outbrain|taboola)(?=$|[\s_-])/i;

/**
 * Furniture outside an article; inside one these words also name captions, pull quotes and teasers
 * that hold article text (a "promo-image" figure, a "related" aside), so there only their link
 * bars go (share buttons, related-link lists).
 */
const FURNITURE_OUTSIDE_ARTICLE =
  /(?:^|\s)(?:share|sharing|social|socials|sharebar|promo|promotion|related|recommended|paywall)(?=$|[\s_-])/i;

/**
 * A share or follow bar named so inside a compound (`sd-social`, `post-share-buttons`,
 * `entry-sharing`): anywhere, a bar of links so named is furniture. Only at a name's start do
 * these words name furniture that is not links (FURNITURE_OUTSIDE_ARTICLE).
 */
const SHARE_BAR = /(?:^|[\s_-])(?:share|sharing|sharebar|social|socials)(?=$|[\s_-])/i;

/** Above this share of link text, furniture inside an <article> is a bar of links, not prose. */
const LINK_BAR_SHARE = 0.5;

/** Never removed by class/id: containers whose names often also carry a furniture word. */
const PROTECTED = new Set(['HTML', 'BODY', 'MAIN', 'ARTICLE']);

const HEADINGS = 'h1, h2, h3, h4, h5, h6';

/**
 * A button that is a heading's text or holds a heading: an accordion's or a tab's toggle, whose
 * words are the section's title (WAI-ARIA's accordion pattern is `<h3><button>Question</button></h3>`).
 * Its words are read as the heading's; every other button is a control, whose label is no content.
 */
export function isHeadingToggle(el: Element): boolean {
  return (
    el.tagName === 'BUTTON' &&
    (el.closest(HEADINGS) !== null || el.querySelector(HEADINGS) !== null)
  );
}

/**
 * Never content, whatever it holds: scripts, form controls, frames and embeds (a frame that plays
 * something aside: a video in an article), and dialogs, which say what they are.
 */
function isNeverContent(el: Element, tag: string): boolean {
  if (ALWAYS_TAGS.has(tag)) return !isEmbeddedPlayer(el);
  if (el.getAttribute('aria-modal') === 'true') return true;
  const role = el.getAttribute('role');
  return role !== null && DIALOG_ROLES.has(role);
}

/** Hidden by an attribute or an inline style (stylesheets are not read). */
function isHidden(el: Element): boolean {
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  const style = el.getAttribute('style');
  return style !== null && HIDDEN_STYLE.test(style);
}

/**
 * Hidden until a click shows it: a tab's panel, or what a control's `aria-controls` opens (an
 * accordion's answer, a "read more"). A service's questions and a doc page's code samples in
 * other languages sit in such panels, and the page's reader opens them; hidden markup nothing
 * opens (a menu's copy, a slide-out cart) is furniture. A panel that opens a menu is left to
 * the classifier, which drops menus wherever they stand.
 */
function isDisclosurePanel(el: Element, controlled: Set<string>): boolean {
  if (el.getAttribute('role') === 'tabpanel') return true;
  const id = el.getAttribute('id');
  return id !== null && controlled.has(id);
}

/** Ids of the elements a control opens (`aria-controls` holds a list of ids). */
function controlledIds(elements: readonly Element[]): Set<string> {
  const ids = new Set<string>();
  for (const el of elements) {
    const controls = el.getAttribute('aria-controls');
    if (controls) for (const id of controls.split(/\s+/)) if (id) ids.add(id);
  }
  return ids;
}

/** Hidden (a disclosure panel aside) or named as furniture: removed unless it holds most of the page (see stripBoilerplate). */
function isFurniture(el: Element, tag: string, controlled: Set<string>): boolean {
  if (isHidden(el) && !isDisclosurePanel(el, controlled)) return true;
  if (PROTECTED.has(tag)) return false;
  const id = el.getAttribute('id');
  const cls = el.getAttribute('class');
  if (!(id || cls)) return false;
  const names = `${id ?? ''} ${cls ?? ''}`;
  const always = FURNITURE.test(names);
  const outside = !always && FURNITURE_OUTSIDE_ARTICLE.test(names);
  // Most names hold neither word; a test for either is cheaper than the pattern's scan.
  const bar = !(always || outside) && /shar|social/i.test(names) && SHARE_BAR.test(names);
  if (!(always || outside || bar)) return false;
  // A wrapper that merely carries such a word (a theme's "has-social" body div) holds the page.
  if (el.querySelector('main, article, h1')) return false;
  if (bar) return mostlyLinks(el);
  // Inside an <article> the rest is left to the reader's judgement (the classifier's or
  // Readability's): removing it first cost recall on both data sets.
  return always || !el.closest('article') || mostlyLinks(el);
}

/** Characters other than white space: the markup's line breaks between links are not text. */
const visibleChars = (el: Element) => (el.textContent ?? '').replace(/\s+/g, '').length;

/** Is most of the element's text link text, or has it none (an icon bar)? */
function mostlyLinks(el: Element): boolean {
  const text = visibleChars(el);
  if (text === 0) return true;
  let links = 0;
  for (const a of el.querySelectorAll('a')) links += visibleChars(a);
  return links >= LINK_BAR_SHARE * text;
}

/** Fields a reader types into; a subscription asks for an address and at most a name. */
const TYPED_FIELDS =
  'input:not([type]), input[type="text"], input[type="email"], input[type="tel"]';

/**
 * A form that asks for an email address and at most one more line, and takes no message or
 * password: a newsletter or alerts signup, whatever its box is named. A contact or comment form
 * (a message box) and a login (a password) are not.
 */
function isSubscription(form: Element): boolean {
  return (
    form.querySelector('input[type="email"]') !== null &&
    form.querySelectorAll(TYPED_FIELDS).length <= 2 &&
    form.querySelector('textarea, input[type="password"]') === null
  );
}

/** A subscription's box holds its pitch, a heading and a line or two; more words are the page's. */
const SUBSCRIPTION_BOX_WORDS = 60;

/** The signup form and the box around it that says nothing else: the pitch and its heading. */
function subscriptionBox(form: Element): Element {
  let box = form;
  for (let up = form.parentElement; up && !PROTECTED.has(up.tagName); up = up.parentElement) {
    if (wordCount(up.textContent ?? '') > SUBSCRIPTION_BOX_WORDS) break;
    if (up.querySelector('main, article, h1') || up.querySelectorAll('form').length > 1) break;
    box = up;
  }
  return box;
}

/**
 * Characters of text a reader could see under `node`. It runs on every page: walking siblings
 * rather than `childNodes` (an array linkedom builds on each call) costs half as much.
 */
function readableChars(node: Node): number {
  let chars = 0;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) chars += trimmedLength((child as Text).data);
    else if (child.nodeType === 1 && !NOT_SHOWN.has(child.nodeName)) chars += readableChars(child);
  }
  return chars;
}

/**
 * Share of the page's text above which an element is the page, whatever hides or names it: a
 * wrapper hidden until a script shows it (`visibility:hidden` against a flash of unstyled
 * content), a `<div class=share>` left open by its author around the rest of the page. No cookie
 * banner, share bar or hidden menu holds most of a page's words.
 */
const MOST_OF_PAGE = 0.5;

/**
 * One walk over the tree rather than a query per rule: on linkedom each selector query is a
 * full traversal, and this runs on every page. `all` are the root's elements in document order,
 * for a caller that has them.
 */
export function stripBoilerplate(
  root: ParentNode,
  all: readonly Element[] = [...root.querySelectorAll('*')],
): void {
  let elements = all;
  // An unwrapped <noscript>'s elements keep their place in document order; the element itself goes.
  const noscripts = elements.filter((el) => el.localName === 'noscript');
  resolveNoscripts(root, noscripts);
  if (noscripts.length) elements = elements.filter((el) => el.isConnected);
  // From the root element: linkedom's document links its first child to no next sibling.
  const pageChars = readableChars((root as Document).documentElement ?? (root as Node));
  const holdsMostOfPage = (el: Element) => readableChars(el) > MOST_OF_PAGE * pageChars;
  const controlled = controlledIds(elements);
  for (const el of elements) {
    // Inside what an earlier element's removal took away: nothing left to judge or to weigh.
    if (!el.isConnected) continue;
    // linkedom makes tagName anew on every read (upper-casing the local name): read once.
    const tag = el.tagName;
    if (tag === 'BUTTON' && isHeadingToggle(el)) {
      el.replaceWith(...el.childNodes);
    } else if (el.localName === 'form' && isSubscription(el)) {
      const box = subscriptionBox(el);
      if (!holdsMostOfPage(box)) box.remove();
    } else if (
      isNeverContent(el, tag) ||
      (isFurniture(el, tag, controlled) && !holdsMostOfPage(el))
    ) {
      el.remove();
    }
  }
}

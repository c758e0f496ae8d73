/**
 * Reads a page's HTML for two signals escalation needs: the page is not really there without
 * JavaScript, or what came back is an anti-bot challenge or block instead of the page. Regular
 * expressions over the raw HTML rather than a DOM parse: this runs on every fetched page, on the
 * main thread, and only needs the visible text and a few markers.
 */

export interface BlockVerdict {
  /** `challenge`: a JavaScript check a real browser may pass by waiting. `blocked`: a wall (captcha, denial). */
  kind: 'challenge' | 'blocked';
  reason: string;
}

/** Below this many characters of visible text a page counts as "little text". */
const THIN_TEXT = 200;
/** Block phrases are only trusted on short pages, so an article about captchas is not a captcha. */
export const BLOCK_PAGE_TEXT = 2000;
/**
 * A vendor's script or widget is a verdict only on a page this short: bot managers inject their
 * passive scripts (Cloudflare's jsd/main.js, Incapsula's resource) and sites embed captcha
 * widgets (a comment form's reCAPTCHA) into ordinary pages. A challenge page carries a line or
 * two of text ("Just a moment...", a ray id); a page with more than this is a page.
 */
const MARKER_PAGE_TEXT = 600;

/** What a browser does not show as text: a comment, a raw-text element with its content, a tag. */
const HIDDEN = /<!--[\s\S]*?-->|<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>|<[^>]+>/iy;
const TEXT_RUN = /[^<]+|</y;

function normalizeRun(run: string): string {
  return run
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, '_')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The page's text as a reader sees it, whitespace collapsed and entities as one character each.
 * Read left to right, so a caller that only needs to know the text is longer than `limit` stops
 * there: the answer is then a prefix just over `limit` characters long, not the whole text. Most
 * pages are long, and this runs on every fetched page.
 */
export function visibleText(html: string, limit = Infinity): string {
  const pieces: string[] = [];
  let length = -1;
  let run = '';
  const flush = (): boolean => {
    const piece = normalizeRun(run);
    run = '';
    if (piece) {
      pieces.push(piece);
      length += piece.length + 1;
    }
    return length > limit;
  };
  for (let at = 0; at < html.length; ) {
    HIDDEN.lastIndex = at;
    if (html.charCodeAt(at) === 60 && HIDDEN.test(html)) {
      at = HIDDEN.lastIndex;
      if (flush()) break;
      continue;
    }
    TEXT_RUN.lastIndex = at;
    TEXT_RUN.test(html);
    run += html.slice(at, TEXT_RUN.lastIndex);
    at = TEXT_RUN.lastIndex;
  }
  if (run) flush();
  return pieces.join(' ');
}

function title(html: string): string {
  return (html.match(/<title[^>]*>([\s\S]*?)<\/title>/i)?.[1] ?? '').replace(/\s+/g, ' ').trim();
}

const CHALLENGE_MARKERS: Array<[RegExp, string]> = [
  [
    /\bcf_chl_opt\b|\/cdn-cgi\/challenge-platform\/|id=["']challenge-form["']|\bcf-browser-verification\b/i,
    'Cloudflare browser check',
  ],
  [/_Incapsula_Resource|\bincap_ses_/i, 'Incapsula browser check'],
];

const CHALLENGE_TITLES: Array<[RegExp, string]> = [
  [/^just a moment\b/i, '"Just a moment" browser check'],
  [/checking (if the site connection is secure|your browser)/i, '"Checking your browser" check'],
  [/^(ddos-guard|one more step)\b/i, 'browser check'],
];

const CHALLENGE_PHRASES: Array<[RegExp, string]> = [
  [
    /checking (if the site connection is secure|your browser before accessing)/i,
    '"Checking your browser" check',
  ],
  [/(please )?enable (javascript|js) and cookies to continue/i, 'JavaScript and cookie check'],
  [/please wait while we (verify|check) (your browser|that you are)/i, 'browser verification'],
];

/**
 * A captcha widget on the page, or DataDome's captcha frame. Loading a captcha vendor's script is
 * not a sign: sites load it on every page for the one form (sign-up, comments) that uses it.
 */
const CAPTCHA_MARKERS =
  /class=["'][^"']*\b(g-recaptcha|h-captcha|cf-turnstile)\b|id=["']px-captcha["']|<iframe\b[^>]*captcha-delivery\.com/i;

const BLOCK_TITLES =
  /^(access denied|attention required!?( \| cloudflare)?|you have been blocked|request blocked|forbidden|pardon our interruption|are you a robot\??|robot check|security check|bot detected|403 forbidden)\b/i;

const BLOCK_PHRASES: Array<[RegExp, string]> = [
  [/unusual traffic from your (computer )?network/i, '"unusual traffic" block'],
  [/(verify|prove|confirm) (that )?you are (a )?(human|not a robot)/i, 'human verification wall'],
  [/\b(are you a robot|i'?m not a robot)\b/i, 'robot check'],
  [/you have been blocked|sorry, you have been blocked/i, 'block page'],
  [/\baccess (to this page )?(has been )?denied\b/i, '"access denied" page'],
  [
    /automated (access|browsers?|requests|queries|traffic)( (is|are|has been))? (not allowed|detected|blocked|prohibited)/i,
    'automation detected',
  ],
  [/pardon our interruption/i, 'block page'],
  [/request unsuccessful\. incapsula/i, 'Incapsula block'],
];

/** Statuses bot walls answer with; with next to no content they are a wall, not the page. */
const WALL_STATUSES = new Set([403, 429, 503]);

/**
 * The page is a challenge or a block page rather than content, or undefined when it looks real.
 * `statusCode` is the document's HTTP status when known; `text` its visibleText when already made, read to at least BLOCK_PAGE_TEXT characters.
 */
export function detectBlock(
  html: string,
  statusCode = 200,
  text = visibleText(html, BLOCK_PAGE_TEXT),
): BlockVerdict | undefined {
  const head = title(html);
  if (text.length > BLOCK_PAGE_TEXT) return undefined;
  for (const [re, reason] of CHALLENGE_TITLES)
    if (re.test(head)) return { kind: 'challenge', reason };
  for (const [re, reason] of CHALLENGE_PHRASES)
    if (re.test(text)) return { kind: 'challenge', reason };
  const markersCount = text.length <= MARKER_PAGE_TEXT;
  if (markersCount)
    for (const [re, reason] of CHALLENGE_MARKERS)
      if (re.test(html)) return { kind: 'challenge', reason };
  if (/\bcaptcha\b/i.test(head) || (markersCount && CAPTCHA_MARKERS.test(html)))
    return { kind: 'blocked', reason: 'captcha wall' };
  if (BLOCK_TITLES.test(head)) return { kind: 'blocked', reason: `block page ("${head}")` };
  for (const [re, reason] of BLOCK_PHRASES) if (re.test(text)) return { kind: 'blocked', reason };
  if (WALL_STATUSES.has(statusCode) && text.length < THIN_TEXT)
    return { kind: 'blocked', reason: `HTTP ${statusCode} with almost no content` };
  return undefined;
}

const APP_ROOT =
  /<(div|main|section|app-root)\b[^>]*\bid=["'](root|app|__next|__nuxt|svelte|main-app|react-root|application)["'][^>]*>\s*<\/\1>/i;
const NOSCRIPT_ASKS =
  /<noscript\b[^>]*>[\s\S]*?(enable javascript|javascript (is )?(required|disabled|must be enabled)|requires javascript|turn on javascript|need(s)? (to enable )?javascript)[\s\S]*?<\/noscript>/i;

/** Why the page needs a browser to show its content, or undefined when its HTML already has it (`text`: its visibleText, read to at least THIN_TEXT characters). */
export function needsJavaScript(
  html: string,
  text = visibleText(html, THIN_TEXT),
): string | undefined {
  if (text.length >= THIN_TEXT) return undefined;
  if (APP_ROOT.test(html)) return 'little text and an empty script app root';
  if (NOSCRIPT_ASKS.test(html)) return 'little text and a <noscript> asking for JavaScript';
  if (text.length < 50 && /<script\b/i.test(html)) return 'almost no text and scripts';
  return undefined;
}

/**
 * In a browser, whether a script app has not rendered yet: its root is still empty. The other
 * signals of needsJavaScript stay true after rendering (a <noscript> stays in the DOM, a short
 * page stays short), so they cannot tell a browser when to stop waiting.
 */
export function awaitingRender(html: string): boolean {
  return APP_ROOT.test(html) && visibleText(html, THIN_TEXT).length < THIN_TEXT;
}

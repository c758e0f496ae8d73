/**
 * Judges a page by its extracted main content rather than by the whole page: a server-rendered
 * header, nav and footer around an empty app div is a lot of text, and none of it is the page.
 * Consumes what content conversion produced (markdown or HTML of the main content) plus the raw
 * page for its scripts and loading marks.
 */

export interface ContentVerdict {
  /**
   * `placeholder`: the main content stands in for content still coming (a spinner, "Loading…",
   * a skeleton, "enable JavaScript", a verification notice); worth waiting for.
   * `thin`: next to no main content on a page that runs scripts; a browser may render more.
   */
  kind: 'placeholder' | 'thin';
  reason: string;
}

import { visibleText } from './page-signals.ts';

/** Main content shorter than this, on a page with scripts, is thin. */
const THIN_MAIN_TEXT = 120;
/** Placeholder words are only trusted in main content this short, so an article about loading bays is an article. */
const PLACEHOLDER_MAIN_TEXT = 400;

const PLACEHOLDER_PHRASES: Array<[RegExp, string]> = [
  [
    /\b(loading|chargement|cargando|carregando|caricamento|wird geladen|laden)\s*(\.\.\.|…)|^\W*loading\W*$/i,
    '"Loading…"',
  ],
  [/\bplease wait\b|\bone moment\b|\bjust a moment\b/i, '"please wait"'],
  [
    /\b(enable|turn on|activate) javascript\b|\bjavascript (is )?(required|disabled|must be enabled)\b|\brequires javascript\b/i,
    '"enable JavaScript"',
  ],
  [
    /\b(checking|verifying) (your browser|(that )?you are (a )?(human|not a robot))|\bbrowser (check|verification)\b/i,
    'a verification notice',
  ],
];

/** Loading marks a rendered page carries while its content is on the way. */
const LOADING_MARKS =
  /\baria-busy=["']true["']|\bclass=["'][^"']*\b(skeleton|shimmer|spinner|loading-spinner|placeholder-glow|content-loader)\b/i;

/** Markdown or HTML as plain words: link targets, tags and markup dropped. */
export function mainText(content: string): string {
  return content
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_`>|~=-]+/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const EMPTY_APP_ROOT =
  /<(div|main|section|app-root)\b[^>]*\bid=["'](root|app|__next|__nuxt|svelte|main-app|react-root|application)["'][^>]*>\s*<\/\1>/i;

function judgeText(text: string, marks: string): ContentVerdict | undefined {
  if (text.length < PLACEHOLDER_MAIN_TEXT) {
    for (const [re, what] of PLACEHOLDER_PHRASES)
      if (re.test(text))
        return { kind: 'placeholder', reason: `the main content is a placeholder (${what})` };
  }
  if (text.length < THIN_MAIN_TEXT) {
    if (LOADING_MARKS.test(marks))
      return { kind: 'placeholder', reason: 'the main content is a loading skeleton' };
    return {
      kind: 'thin',
      reason: `the main content has ${text.length} characters and the page runs scripts`,
    };
  }
  return undefined;
}

const LAYOUT_REGIONS = /<(header|footer|nav|aside)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;

/** Whether `text` (extracted main content) is the page's chrome: it opens with words of its header, footer, nav or aside. */
function isLayout(text: string, html: string): boolean {
  const opening = text.slice(0, 60);
  if (opening.length < 20) return false;
  for (const m of html.matchAll(LAYOUT_REGIONS))
    if (visibleText(m[0]).includes(opening)) return true;
  return false;
}

/** The declared main region's verdict (`<main>`, else an empty script app root), or undefined. */
function judgeDeclared(html: string): ContentVerdict | undefined {
  const region = /<main\b[^>]*>([\s\S]*?)<\/main\s*>/i.exec(html)?.[1];
  if (region !== undefined) {
    // judgeText looks no further than PLACEHOLDER_MAIN_TEXT characters.
    const verdict = judgeText(visibleText(region, PLACEHOLDER_MAIN_TEXT), region);
    return (
      verdict && {
        kind: verdict.kind,
        reason: verdict.reason.replace('the main content', "the page's <main>"),
      }
    );
  }
  return EMPTY_APP_ROOT.test(html)
    ? { kind: 'thin', reason: 'the script app root is empty' }
    : undefined;
}

/**
 * Why the main content is not the page yet, or undefined when it is. Reads the extracted main
 * content first. With nothing in `<main>` an extractor falls back to the longest text it finds,
 * often the footer: so an empty or placeholder `<main>` (or app root) decides when the extracted
 * text is thin or is the page's own chrome. Loading marks count only inside `<main>`: real pages
 * keep hidden spinners anywhere. A page without scripts is what it is: no browser will change it.
 */
export function judgeMainContent(content: string, html: string): ContentVerdict | undefined {
  if (!/<script\b/i.test(html)) return undefined;
  const text = mainText(content);
  const extracted = judgeText(text, '');
  if (extracted?.kind === 'placeholder') return extracted;
  const declared = judgeDeclared(html);
  if (declared && (extracted || isLayout(text, html))) return declared;
  return extracted;
}

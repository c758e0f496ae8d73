import { parseHtml } from '../dom/index.ts';

/** One field of selector extraction: a CSS selector, or one with the attribute to read and whether to take every match. */
export type SelectorSpec = string | { selector: string; attribute?: string; all?: boolean };

/** Field name to spec. */
export type Selectors = Record<string, SelectorSpec>;

/** What a field holds: text or an attribute of the first match (null without one), or of every match. */
export type SelectedValue = string | null | string[];

/** Attributes that hold URLs: read as absolute URLs against the page, as a browser resolves them. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'poster', 'cite', 'data', 'formaction']);

function normalise(spec: SelectorSpec): { selector: string; attribute?: string; all: boolean } {
  return typeof spec === 'string'
    ? { selector: spec, all: false }
    : { selector: spec.selector, attribute: spec.attribute, all: spec.all ?? false };
}

function selectedValue(el: Element, attribute: string | undefined, base: string): string | null {
  if (attribute === undefined) return (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  const raw = el.getAttribute(attribute);
  if (raw === null) return null;
  if (!URL_ATTRIBUTES.has(attribute.toLowerCase())) return raw;
  try {
    return new URL(raw.trim(), base).href;
  } catch {
    return raw;
  }
}

const probe = parseHtml('<html><body></body></html>');

/** Why a CSS selector cannot be used (the parser's own complaint), or undefined. Checked before any page is fetched. */
export function selectorProblem(selector: string): string | undefined {
  if (!selector.trim()) return 'must not be blank';
  try {
    probe.querySelectorAll(selector);
    return undefined;
  } catch (err) {
    return `is not a valid CSS selector: ${(err as Error).message}`;
  }
}

/**
 * Reads each field from the page by its CSS selector. Selectors are matched by the HTML parser's
 * selector engine and nothing in a spec is ever run as code. A field without a match is null
 * (an empty list with `all`).
 */
export function selectFields(
  html: string,
  url: string,
  selectors: Selectors,
): Record<string, SelectedValue> {
  const doc = parseHtml(html);
  const base = doc.querySelector('base[href]')?.getAttribute('href');
  let baseUrl = url;
  try {
    if (base) baseUrl = new URL(base, url).href;
  } catch {
    // A broken <base> is ignored, as browsers do.
  }
  const out: Record<string, SelectedValue> = {};
  for (const [field, spec] of Object.entries(selectors)) {
    const { selector, attribute, all } = normalise(spec);
    if (all) {
      out[field] = [...doc.querySelectorAll(selector)]
        .map((el) => selectedValue(el, attribute, baseUrl))
        .filter((v): v is string => v !== null);
      continue;
    }
    const el = doc.querySelector(selector);
    out[field] = el ? selectedValue(el, attribute, baseUrl) : null;
  }
  return out;
}

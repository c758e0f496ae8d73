import { parseHTML } from 'linkedom';

/**
 * Narrows a page to the elements `include` selects (all of them, in document order) and drops
 * those `exclude` selects, before conversion. A selector the parser cannot read is the caller's
 * mistake and is reported as a SelectorError naming it.
 */
export class SelectorError extends Error {
  readonly selector: string;
  constructor(selector: string) {
    super(`"${selector}" is not a valid CSS selector`);
    this.selector = selector;
  }
}

/** A page and the caller's selectors of what to keep (`includeTags`) and drop (`excludeTags`). */
export interface TagSelection {
  html: string;
  include?: readonly string[];
  exclude?: readonly string[];
}

function all(root: ParentNode, selector: string): Element[] {
  try {
    return [...root.querySelectorAll(selector)];
  } catch {
    throw new SelectorError(selector);
  }
}

export function selectTags(
  html: string,
  include: readonly string[] = [],
  exclude: readonly string[] = [],
): string {
  if (include.length === 0 && exclude.length === 0) return html;
  const { document } = parseHTML(html);
  for (const selector of exclude) for (const el of all(document, selector)) el.remove();
  if (include.length > 0) {
    for (const selector of include) all(document, selector);
    // One selector list, so the picks come in document order whatever order the selectors came in.
    const picked = all(document, include.join(', '));
    // An element inside another picked one comes along with it, so it is not repeated.
    const outer = picked.filter(
      (el) => !picked.some((other) => other !== el && other.contains(el)),
    );
    const body = document.body ?? document.documentElement;
    const keep = outer.map((el) => el.outerHTML).join('\n');
    body.innerHTML = keep;
  }
  return document.toString();
}

/**
 * React's streamed server rendering (Next.js and others) sends a page's slow parts after the
 * rest: where a part belongs it prints a fallback (a skeleton, often nothing) marked by a
 * `<template id="B:n">` between `<!--$?-->` and `<!--/$-->`, or a bare `<template id="P:n">`, and at
 * the end of the body the part itself in `<div hidden id="S:n">`, which an inline script
 * (`$RC("B:n","S:n")`, `$RS("S:n","P:n")`) moves into place. A browser shows the part where it
 * belongs; without this the article sat in a hidden div and went with the hidden markup. The
 * numbers pair up whether or not the scripts were kept (they share one counter), so the move is
 * made from the markup alone, as the scripts would make it.
 */

const SUSPENSE_START = new Set(['$', '$?', '$!']);

/**
 * Puts a part where its template stands. A boundary's template (`B:n` after `<!--$?-->`) takes its
 * fallback with it, up to the matching `<!--/$-->`; any other template is simply replaced.
 */
function fillTemplate(template: Element, part: Element): void {
  const start = template.previousSibling;
  if (
    !template.getAttribute('id')!.startsWith('B:') ||
    start?.nodeType !== 8 ||
    (start as Comment).data !== '$?'
  ) {
    template.replaceWith(...part.childNodes);
    return;
  }
  let node = start.nextSibling;
  let depth = 0;
  while (node) {
    if (node.nodeType === 8) {
      const data = (node as Comment).data;
      if (data === '/$') {
        if (depth === 0) break;
        depth--;
      } else if (SUSPENSE_START.has(data)) depth++;
    }
    const next: ChildNode | null = node.nextSibling;
    node.remove();
    node = next;
  }
  for (const child of [...part.childNodes]) start.parentNode!.insertBefore(child, node);
}

export function completeStreamedParts(doc: Document): void {
  // One walk finds both (linkedom walks the whole tree for each query or getElementById, and a
  // page streams dozens of parts).
  const templates = new Map<string, Element>();
  const parts: Element[] = [];
  for (const el of doc.querySelectorAll('template[id], div[hidden][id^="S:"]')) {
    if (el.tagName === 'TEMPLATE') templates.set(el.getAttribute('id')!, el);
    else parts.push(el);
  }
  // In document order, as the stream delivers them: a part may hold the placeholders of later ones.
  for (const part of parts) {
    const n = part.getAttribute('id')!.slice(2);
    const template = templates.get(`B:${n}`) ?? templates.get(`P:${n}`);
    if (!template) continue;
    fillTemplate(template, part);
    part.remove();
  }
}

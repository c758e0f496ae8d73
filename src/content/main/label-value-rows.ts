/** A cell longer than this is a layout table's column, not a record's field. */
const DATA_CELL_WORDS = 40;

const isCell = (el: Element) => el.tagName === 'TD' || el.tagName === 'TH';

/**
 * A table row of a label and its value (a spec, a fact sheet's line): exactly two cells with
 * text. Rows of more cells are a listing's records, whose extra cells (counts, dates, buttons)
 * a reader is often better without.
 */
function isLabelValueRow(row: Element | null): boolean {
  if (row?.tagName !== 'TR') return false;
  let cells = 0;
  for (const c of row.children) if (isCell(c) && c.textContent?.trim()) cells++;
  return cells === 2;
}

/** Is `el`, holding `words` words, a short cell of a label-value row (see keptBlocks)? */
export function isLabelValueCell(el: Element, words: number): boolean {
  return isCell(el) && words <= DATA_CELL_WORDS && isLabelValueRow(el.parentElement);
}

import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/content/dom/parse.ts';
import { keptBlocks } from '../../src/content/main/block-model.ts';
import { collectBlocks } from '../../src/content/main/blocks.ts';

describe('which blocks are kept', () => {
  it('keeps those at or above the threshold', () => {
    expect(keptBlocks([0.2, 0.5, 0.7], 0.5, [-1, -1, -1])).toEqual([false, true, true]);
  });

  it('keeps every label-value cell of a table one of whose cells is kept, and no other table', () => {
    expect(keptBlocks([0.6, 0.1, 0.3, 0.2, 0.1], 0.5, [4, 4, 4, 7, -1])).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it("marks the cells of a table's label-value rows with their table, and neither a layout table's long cell, a paragraph inside a cell nor a listing's row of more cells", () => {
    const long = 'word '.repeat(60);
    const doc = parseHtml(
      `<html><body><table><tr><th>Volume</th><td>20 litres</td></tr><tr><th>Fabric</th><td>Nylon</td></tr><tr><td>${long}</td><td><p>A paragraph in a cell</p></td></tr><tr><td>Garden chair</td><td>12 comments</td><td>2 days ago</td></tr></table><table><tr><th>Weight</th><td>1 kg</td></tr></table></body></html>`,
    );
    const blocks = collectBlocks(doc.body);
    const table = (text: string) => blocks.find((b) => b.text.startsWith(text))!.specTable;
    expect(table('Volume')).toBeGreaterThanOrEqual(0);
    expect(table('20 litres')).toBe(table('Volume'));
    expect(table('Nylon')).toBe(table('Volume'));
    expect(table('Weight')).toBeGreaterThanOrEqual(0);
    expect(table('Weight')).not.toBe(table('Volume'));
    expect(table('word')).toBe(-1);
    expect(table('A paragraph')).toBe(-1);
    expect(table('Garden chair')).toBe(-1);
    expect(table('12 comments')).toBe(-1);
  });
});

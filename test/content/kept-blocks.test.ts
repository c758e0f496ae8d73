import { describe, expect, it } from 'vitest';
import { keptBlocks } from '../../src/content/block-model.ts';
import { collectBlocks } from '../../src/content/blocks.ts';
import { parseHtml } from '../../src/content/parse.ts';

describe('which blocks are kept', () => {
  it('keeps those at or above the threshold', () => {
    expect(keptBlocks([0.2, 0.5, 0.7], 0.5, [-1, -1, -1], [1, 2, 3])).toEqual([false, true, true]);
  });

  it('keeps every cell of a data-table row one of whose cells is kept, and no other row', () => {
    expect(keptBlocks([0.6, 0.1, 0.3, 0.2, 0.1], 0.5, [4, 4, 7, 7, -1], [4, 4, 7, 7, 1])).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('keeps a block framed by kept blocks under the same parent, and not one framed across parents or at an end', () => {
    const parents = [1, 1, 2, 1, 1, 3, 1];
    expect(
      keptBlocks(
        [0.9, 0.1, 0.9, 0.9, 0.1, 0.9, 0.1],
        0.5,
        parents.map(() => -1),
        parents,
      ),
    ).toEqual([true, true, true, true, false, true, false]);
  });

  it("marks the cells of a label-value row with their row, and neither a layout table's long cell, a paragraph inside a cell nor a listing's row of more cells", () => {
    const long = 'word '.repeat(60);
    const doc = parseHtml(
      `<html><body><table><tr><th>Volume</th><td>20 litres</td></tr><tr><td>${long}</td><td><p>A paragraph in a cell</p></td></tr><tr><td>Garden chair</td><td>12 comments</td><td>2 days ago</td></tr></table></body></html>`,
    );
    const blocks = collectBlocks(doc.body);
    const row = (text: string) => blocks.find((b) => b.text.startsWith(text))!.row;
    expect(row('Volume')).toBeGreaterThanOrEqual(0);
    expect(row('20 litres')).toBe(row('Volume'));
    expect(row('word')).toBe(-1);
    expect(row('A paragraph')).toBe(-1);
    expect(row('Garden chair')).toBe(-1);
    expect(row('12 comments')).toBe(-1);
  });
});

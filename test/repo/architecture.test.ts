import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROWS } from '../../.dependency-cruiser.mjs';
import { architectureDoc } from '../../scripts/architecture-graph.ts';

const DOC = join(import.meta.dirname, '../../docs/architecture.md');

/** The rooms the doc's drawing puts on each row: the room names a line of it starts with. */
function drawnRows(doc: string): string[][] {
  const from = doc.indexOf('## Rooms and the way imports point');
  const block = /```\n([\s\S]*?)```/.exec(doc.slice(from))![1]!;
  const rooms = new Set(ROWS.flat());
  return block
    .trimEnd()
    .split('\n')
    .map((line) => {
      const names = line.split(/\s+/).map((word) => word.replace(/\.ts$/, ''));
      const end = names.findIndex((name) => !rooms.has(name));
      return end < 0 ? names : names.slice(0, end);
    });
}

describe('docs/architecture.md', () => {
  it('lists the room edges the imports of src/ have (npm run docs:architecture)', async () => {
    expect(
      await readFile(DOC, 'utf8'),
      'docs/architecture.md is stale: run npm run docs:architecture',
    ).toBe(await architectureDoc());
  }, 60_000);

  it('draws the rows of rooms that the dependency-cruiser rules enforce', async () => {
    expect(drawnRows(await readFile(DOC, 'utf8'))).toEqual(ROWS);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectureDoc } from '../../scripts/architecture-graph.ts';

const DOC = join(import.meta.dirname, '../../docs/architecture.md');

describe('docs/architecture.md', () => {
  it('lists the room edges the imports of src/ have (npm run docs:architecture)', async () => {
    expect(
      await readFile(DOC, 'utf8'),
      'docs/architecture.md is stale: run npm run docs:architecture',
    ).toBe(await architectureDoc());
  }, 60_000);
});

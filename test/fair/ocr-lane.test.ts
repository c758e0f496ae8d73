import { describe, expect, it } from 'vitest';
import { blankPdf, servePdf } from '../fixtures/blank-pdf.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

const site = useFixture(() =>
  startFixtureSite({
    '/many.pdf': servePdf(blankPdf(60, 400)),
    '/one.pdf': servePdf(blankPdf(1, 400)),
  }),
);
const t = useServer({
  settings: { WEBDATA_OCR_CONCURRENCY: '1', WEBDATA_OCR_BUDGET_MS: '12000' },
});

/** When a request's answer came, in ms since the test began. */
async function endsAt<T>(work: Promise<T>, since: number): Promise<number> {
  await work;
  return performance.now() - since;
}

describe('the OCR lane shared between keys (issue 51, row 13)', () => {
  it("reads another key's one page between the pages of one key's long documents", async () => {
    const since = performance.now();
    const ocr = (path: string, key?: string) =>
      t.api(
        'POST',
        '/api/v1/scrape/single',
        { url: `${site.origin}${path}`, pdfStrategy: 'ocr' },
        key,
      );
    const first = endsAt(ocr('/many.pdf'), since);
    const second = endsAt(ocr('/many.pdf'), since);
    await new Promise((r) => setTimeout(r, 500));
    const other = ocr('/one.pdf', TEST_KEY_2);
    const otherEnd = await endsAt(other, since);
    expect((await other).json.cost).toBe(0.003);
    // Each long document runs to its 12 s budget; first come, first served, the one page would
    // wait for both.
    expect(otherEnd).toBeLessThan(Math.min(await first, await second));
  });
});

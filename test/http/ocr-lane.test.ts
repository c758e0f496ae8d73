import { describe, expect, it } from 'vitest';
import { ocrDpi } from '../../src/content/pdf/ocr-lane.ts';
import { blankPdf, servePdf } from '../fixtures/blank-pdf.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { timed } from '../helpers/poll.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';

const site = useFixture(() =>
  startFixtureSite({
    '/blank-huge.pdf': servePdf(blankPdf(2, 4000)),
    '/blank-many.pdf': servePdf(blankPdf(40, 4000)),
  }),
);
const t = useServer();
/** The same service with a short OCR budget. */
const tight = useServer({ settings: { WEBDATA_OCR_BUDGET_MS: '3000' } });

describe('OCR lane', () => {
  it('renders a huge page at a resolution that keeps it under the pixel cap', () => {
    expect(ocrDpi({ n: 1, widthPt: 595, heightPt: 842 }, 8_000_000)).toBe(200);
    const dpi = ocrDpi({ n: 1, widthPt: 4000, heightPt: 4000 }, 8_000_000);
    expect(dpi).toBeLessThan(60);
    expect((4000 / 72) * dpi * ((4000 / 72) * dpi)).toBeLessThanOrEqual(8_000_000);
  });

  it('reads huge blank pages within a bound, charges the OCR done, and does not hold up an HTML page', async () => {
    const ocr = timed(
      t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/blank-huge.pdf`,
        pdfStrategy: 'ocr',
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const html = await timed(
      t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/article.html` }, TEST_KEY_2),
    );
    expect(html.value.json.success).toBe(true);
    expect(html.ms).toBeLessThan(5_000);

    const { value, ms } = await ocr;
    expect(value.json.success).toBe(false);
    expect(value.json.error).toMatch(/no readable text/);
    // Two pages recognised: charged for the work though nothing was found; the fetch is not.
    expect(value.json.cost).toBe(0.006);
    // Unbounded, these two pages took about 37 s; at the pixel cap they take a few.
    expect(ms).toBeLessThan(30_000);
    const user = (await t.server.keys.authenticate(TEST_KEY))!;
    const rows = await t.server.ledger.forUser(user.userId);
    expect(rows.map((r) => [r.operation, r.units, r.costMicros])).toEqual([['pdf-ocr', 2, 6000]]);
  });

  it('stops a document at its OCR time budget and charges only the pages started', async () => {
    const { value, ms } = await timed(
      tight.api(
        'POST',
        '/api/v1/scrape/single',
        { url: `${site.origin}/blank-many.pdf`, pdfStrategy: 'ocr' },
        TEST_KEY_2,
      ),
    );
    expect(value.json.success).toBe(false);
    // A 3 s budget, with room for a loaded machine; all 40 pages would take minutes.
    expect(ms).toBeLessThan(15_000);
    expect(value.json.cost).toBeGreaterThan(0);
    expect(value.json.cost).toBeLessThan(40 * 0.003);
  });
});

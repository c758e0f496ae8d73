import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer();

const scrape = (body: Record<string, unknown>, key?: string) =>
  t.api('POST', '/api/v1/scrape/single', body, key);

describe('PDF pages in /v1/scrape/single', () => {
  it('reads the text layer with pdfStrategy local, at the plain fetch price', async () => {
    const { json } = await scrape({
      url: `${site.origin}/docs/harbour-report.pdf`,
      pdfStrategy: 'local',
      extractMetadata: true,
    });
    expect(json.success).toBe(true);
    expect(json.markdown).toContain('Quarterly Harbour Report');
    expect(json.markdown).toContain('Dredging of the eastern channel begins in March.');
    expect(json.cost).toBe(0.002);
    expect(json.metadata.contentType).toBe('application/pdf');
  });

  it('fails a scanned PDF under local, and reads it by OCR under auto, billing the OCR page', async () => {
    const local = await scrape({
      url: `${site.origin}/docs/scanned-log.pdf`,
      pdfStrategy: 'local',
    });
    expect(local.json).toMatchObject({ success: false, cost: 0 });
    expect(local.json.error).toMatch(/no readable text/);
    const auto = await scrape({ url: `${site.origin}/docs/scanned-log.pdf`, pdfStrategy: 'auto' });
    expect(auto.json.success).toBe(true);
    expect(auto.json.markdown).toMatch(/Lighthouse keepers log/i);
    expect(auto.json.markdown).toMatch(/Fog signal sounded at dawn/i);
    expect(auto.json.cost).toBe(0.005);
  });

  it('recognises every page by default (ocr) and records fetch and OCR in the ledger', async () => {
    const { json } = await scrape({ url: `${site.origin}/docs/harbour-report.pdf` }, TEST_KEY_2);
    expect(json.success).toBe(true);
    expect(json.markdown).toMatch(/Cargo volumes rose by twelve percent/);
    expect(json.cost).toBe(0.008);
    const user = (await t.server.keys.authenticate(TEST_KEY_2))!;
    const rows = await t.server.ledger.forUser(user.userId);
    expect(rows.map((r) => [r.operation, r.units, r.costMicros])).toEqual([
      ['scrape', 1, 2000],
      ['pdf-ocr', 2, 6000],
    ]);
  });
});

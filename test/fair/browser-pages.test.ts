import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { browserCapacity, expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const t = useServer({
  settings: browserCapacity({ browsers: 1, pages: 4, perKey: 2, queueWaitMs: 1000 }),
});

describe('browser pages shared between keys (issue 51, row 10)', () => {
  it("serves another key's scrape and screenshot while one key keeps every page it may hold busy", async () => {
    const held = Array.from({ length: 5 }, (_, n) =>
      t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/browser/slow-js?n=${n}&ms=5000`,
      }),
    );
    await waitFor(() => t.server.services.browser.stats().browser.activePages >= 2);
    const [shot, scrape] = await Promise.all([
      t.api(
        'POST',
        '/api/v1/screenshot',
        {
          url: `${site.origin}/browser/slow-js?n=8&ms=50`,
          fullPage: false,
          width: 320,
          height: 240,
        },
        TEST_KEY_2,
      ),
      t.api(
        'POST',
        '/api/v1/scrape/single',
        { url: `${site.origin}/browser/slow-js?n=9&ms=50` },
        TEST_KEY_2,
      ),
    ]);
    expect(shot.status).toBe(200);
    expect(shot.json.error).toBeUndefined();
    expect(shot.json.success).toBe(true);
    expect(scrape.status).toBe(200);
    expect(scrape.json.markdown).toContain('Slow app number 9.');
    // The first key's pages within its share were served; those beyond it waited their turn.
    const first = await Promise.all(held);
    expect(first.filter((r) => r.status === 200 && r.json.success).length).toBeGreaterThanOrEqual(
      2,
    );
  });
});

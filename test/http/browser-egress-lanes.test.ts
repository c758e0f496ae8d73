import { beforeAll, describe, expect, it } from 'vitest';
import { processTree, pssBytes } from '../../src/browser/index.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { freePort, TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';

const CAP = 1024 * 1024;

/** An HTML response that never ends, written as fast as the reader takes it. */
const endless = { written: 0, startedAt: 0, closedAt: 0 };

/** A port nothing listens on. */
let closedPort: number;
beforeAll(async () => {
  closedPort = await freePort();
});
const site = useFixture(() =>
  startFixtureSite({
    '/endless.html': (_req, res) => {
      endless.startedAt = performance.now();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<!doctype html><html><head><title>Endless</title></head><body>');
      const row = Buffer.from(
        `<div class="row"><p>${'An endless page keeps on writing rows. '.repeat(20)}</p></div>\n`,
      );
      const more = () => {
        while (!res.destroyed) {
          endless.written += row.length;
          if (!res.write(row)) return void res.once('drain', more);
        }
      };
      res.on('close', () => (endless.closedAt = performance.now()));
      more();
    },
    '/with-secret-pixel.html': (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<html><body><p id="t">A page with a pixel on an internal host.</p><img src="http://secret-internal-a.example/pixel.png"></body></html>',
        ),
  }),
);
const t = useServer({
  settings: {
    WEBDATA_MAX_PAGE_BYTES: String(CAP),
    WEBDATA_TEST_RESOLVE: 'secret-internal-a.example=169.254.7.7,a.example=127.0.0.1',
  },
});

describe('browser loads through per-context egress lanes', () => {
  it('stops an endless HTML body at the cap instead of feeding the browser until the navigation times out', async () => {
    // The browser up and warm first, so what is measured is the endless page alone.
    const warm = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/article.html`,
      actions: [{ type: 'wait', milliseconds: 10 }],
    });
    expect(warm.json.success).toBe(true);
    const browserPss = () =>
      t.server.services.browser
        .pids('browser')
        .flatMap(({ pid }) => processTree(pid))
        .reduce((sum, pid) => sum + pssBytes(pid), 0);
    const baseline = browserPss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, browserPss())), 100);

    const started = performance.now();
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/endless.html`,
      actions: [{ type: 'wait', milliseconds: 10 }],
    });
    clearInterval(sampler);
    // Capped, the browser grew by 50-80 MB here; unbounded, by 220 MB in this test's 5 s
    // navigation time-out (and by 3 GB within the service's default one).
    expect(peak - baseline).toBeLessThan(160 * 1024 * 1024);
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(endless.closedAt).toBeGreaterThan(0);
    // The stream was cut soon after it began.
    expect(endless.closedAt - endless.startedAt).toBeLessThan(10_000);
    // About 4 MB capped (the cap plus loopback buffers); 18 MB unbounded in the same time.
    expect(endless.written).toBeLessThan(CAP + 6 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(json.error).toMatch(/larger than 1048576 bytes/);
  });

  it("never explains one user's failure with another user's refusal", async () => {
    const a = await t.api(
      'POST',
      '/api/v1/scrape/single',
      {
        url: `${site.origin}/with-secret-pixel.html`,
        actions: [{ type: 'wait', milliseconds: 10 }],
      },
      TEST_KEY,
    );
    expect(a.json.success).toBe(true);
    expect(
      t.server.services.browser.proxy
        .refusals()
        .some((m) => m.includes('secret-internal-a.example')),
    ).toBe(true);

    // This one fails for a reason of its own (nothing listens there), which the egress proxy does
    // not refuse; its host is a substring of the other user's refused one.
    const b = await t.api(
      'POST',
      '/api/v1/scrape/single',
      { url: `https://a.example:${closedPort}/`, actions: [{ type: 'wait', milliseconds: 10 }] },
      TEST_KEY_2,
    );
    expect(b.json.success).toBe(false);
    expect(b.json.error).not.toMatch(/secret-internal|169\.254/);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sendHtml } from '../fixtures/site/respond.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

/** Pages whose conversion takes a content thread a few hundred milliseconds, and a light one. */
function heavyPage(n: number): string {
  const rows = Array.from(
    { length: 2500 },
    (_, i) =>
      `<div class="row"><p>Paragraph ${i} of page ${n}, with <a href="/p/${i}">a link</a>, some <em>emphasis</em> and enough words to be read as prose by the converter.</p></div>`,
  ).join('');
  return `<!doctype html><html><head><title>Heavy ${n}</title></head><body><main><h1>Heavy page ${n}</h1>${rows}</main></body></html>`;
}

const site = useFixture(async () => {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    sendHtml(
      res,
      url.pathname === '/light'
        ? '<!doctype html><html><head><title>Light</title></head><body><main><h1>Light page</h1><p>A short page of the second key, converted in a moment.</p></main></body></html>'
        : heavyPage(Number(url.searchParams.get('n'))),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
const t = useServer({ settings: { WEBDATA_CONTENT_WORKERS: '1' } });

describe('the content threads shared between keys', () => {
  it("converts another key's page in its turn while one key's pages fill the only thread", async () => {
    const done: string[] = [];
    const flood = Array.from({ length: 10 }, (_, n) =>
      t
        .api('POST', '/api/v1/scrape/single', {
          url: `${site.origin}/heavy?n=${n}`,
          method: 'http',
        })
        .then((r) => {
          done.push(`A${n}`);
          return r;
        }),
    );
    await waitFor(() => t.server.services.content.stats().queued >= 5);
    const light = await t.api(
      'POST',
      '/api/v1/scrape/single',
      { url: `${site.origin}/light`, method: 'http' },
      TEST_KEY_2,
    );
    done.push('B');
    expect(light.status).toBe(200);
    expect(light.json.markdown).toContain('A short page of the second key');
    // In arrival order B waited for every page of A queued before it; in turn, for about one.
    const answers = await Promise.all(flood);
    expect(answers.every((r) => r.status === 200 && r.json.success)).toBe(true);
    expect(done.indexOf('B'), done.join(' ')).toBeLessThan(5);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.ts';
import { startTestServer, TEST_KEY, TEST_KEY_2, type TestServer } from '../helpers/server.ts';

let site: FixtureSite;
let t: TestServer;

beforeAll(async () => {
  site = await startFixtureSite();
  // One page for everyone: a page kept after its client left would lock every other user out.
  t = await startTestServer({ WEBDATA_BROWSER_POOL_SIZE: '1', WEBDATA_BROWSER_MAX_PAGES: '1', WEBDATA_BROWSER_QUEUE_WAIT_MS: '500' });
});
afterAll(async () => {
  await t?.close();
  await site?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const activePages = () => t.server.services.browser.stats().browser.activePages;

async function until(check: () => boolean, ms: number): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > ms) throw new Error(`condition not met within ${ms} ms`);
    await sleep(10);
  }
  return performance.now() - started;
}

describe('aborted browser requests', () => {
  it('frees the page within a second when the client leaves during long waits, and the next user is served', async () => {
    const client = new AbortController();
    const scrape = fetch(`${t.base}/api/v1/scrape/single`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `${site.origin}/article.html`,
        actions: [
          { type: 'wait', milliseconds: 30_000 },
          { type: 'wait', milliseconds: 30_000 },
          { type: 'wait', milliseconds: 30_000 },
        ],
      }),
      signal: client.signal,
    }).catch((err: Error) => err);
    await until(() => activePages() === 1, 30_000);
    // Well into the first wait.
    await sleep(1500);
    expect(activePages()).toBe(1);
    client.abort();
    expect(await scrape).toBeInstanceOf(Error);
    const freedAfterMs = await until(() => activePages() === 0, 5_000);
    expect(freedAfterMs).toBeLessThan(1000);

    const other = await t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/article.html`, actions: [{ type: 'wait', milliseconds: 10 }] }, TEST_KEY_2);
    expect(other.status).toBe(200);
    expect(other.json.success).toBe(true);
  });

  it('frees the page when an async job running long waits is cancelled', async () => {
    const started = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/article.html`,
      actions: [
        { type: 'wait', milliseconds: 30_000 },
        { type: 'wait', milliseconds: 30_000 },
      ],
    });
    expect(started.status).toBeLessThan(300);
    const jobId = started.json.id;
    await until(() => activePages() === 1, 30_000);
    await sleep(1000);
    const cancel = await t.api('DELETE', `/api/v1/scrape/async/job/${jobId}`);
    expect(cancel.status).toBeLessThan(300);
    const freedAfterMs = await until(() => activePages() === 0, 5_000);
    expect(freedAfterMs).toBeLessThan(1000);
  });
});

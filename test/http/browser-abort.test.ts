import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { browserCapacity } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { leavingScrape } from '../helpers/leaving-client.ts';
import { timed, waitFor } from '../helpers/poll.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
// One page for everyone: a page kept after its client left would lock every other user out.
const t = useServer({
  settings: browserCapacity({ browsers: 1, pages: 1, queueWaitMs: 500 }),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const activePages = () => t.server.services.browser.stats().browser.activePages;
/** How long the page took to be freed: probed often, as the bound checked is a second. */
const freed = async () =>
  (await timed(waitFor(() => activePages() === 0, { timeoutMs: 5_000, everyMs: 10 }))).ms;

describe('aborted browser requests', () => {
  it('frees the page within a second when the client leaves during long waits, and the next user is served', async () => {
    const { answer: scrape, leave } = leavingScrape(t, {
      url: `${site.origin}/article.html`,
      actions: [
        { type: 'wait', milliseconds: 30_000 },
        { type: 'wait', milliseconds: 30_000 },
        { type: 'wait', milliseconds: 30_000 },
      ],
    });
    await waitFor(() => activePages() === 1, { timeoutMs: 30_000 });
    // Well into the first wait.
    await sleep(1500);
    expect(activePages()).toBe(1);
    leave();
    expect(await scrape).toBeInstanceOf(Error);
    const freedAfterMs = await freed();
    expect(freedAfterMs).toBeLessThan(1000);

    const other = await t.api(
      'POST',
      '/api/v1/scrape/single',
      { url: `${site.origin}/article.html`, actions: [{ type: 'wait', milliseconds: 10 }] },
      TEST_KEY_2,
    );
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
    await waitFor(() => activePages() === 1, { timeoutMs: 30_000 });
    await sleep(1000);
    const cancel = await t.api('DELETE', `/api/v1/scrape/async/job/${jobId}`);
    expect(cancel.status).toBeLessThan(300);
    const freedAfterMs = await freed();
    expect(freedAfterMs).toBeLessThan(1000);
  });
});

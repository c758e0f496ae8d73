import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type BrowserMethod, processTree } from '../../src/browser/index.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { useServer } from '../helpers/server.ts';

/** Long enough that waiting it out cannot pass for failing at once, even on a loaded machine. */
const BUDGET_MS = 60_000;

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const t = useServer({
  settings: { WEBDATA_BROWSER_POOL_SIZE: '1', WEBDATA_PAGE_BUDGET_MS: String(BUDGET_MS) },
});

const engine = () => t.server.services.browser;

/** Renderer processes of `method`'s browsers: what an out-of-memory kill or a renderer fault ends. */
function renderers(method: BrowserMethod): number[] {
  return engine()
    .pids(method)
    .flatMap(({ pid }) => processTree(pid))
    .filter((pid) => {
      try {
        // A renderer sets its own process title: its arguments are one string, not NUL-separated.
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('--type=renderer');
      } catch {
        return false;
      }
    });
}

describe('a page whose renderer crashes', { timeout: BUDGET_MS * 2 }, () => {
  for (const method of ['browser', 'browser-stealth'] as const)
    it(`fails at once on ${method} with an error naming the crash; the next page is served`, async () => {
      // An app that keeps its placeholder far beyond the budget: only the crash can end it early.
      const path = `/browser/spa?delay=600000&method=${method}`;
      const answer = t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}${path}`,
        method,
      });
      await waitFor(
        () =>
          site.hits.includes(path) &&
          engine()
            .pids(method)
            .some((p) => p.active > 0),
        { timeoutMs: 30_000 },
      );
      // Let the page start settling, so the waits that used to run out the budget are under way.
      await new Promise((r) => setTimeout(r, 1_000));
      const victims = renderers(method);
      expect(victims.length).toBeGreaterThan(0);
      const killedAt = Date.now();
      for (const pid of victims) process.kill(pid, 'SIGKILL');
      const { json } = await answer;
      expect(Date.now() - killedAt).toBeLessThan(BUDGET_MS / 3);
      expect(json).toMatchObject({ success: false, cost: 0, statusCode: 0 });
      expect(json.error).toContain("crashed the browser's renderer");
      const next = await t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/article.html`,
        method,
      });
      expect(next.json).toMatchObject({ success: true, method });
      expect(next.json.markdown).toContain('Twice a day the ocean pulls back');
    });
});

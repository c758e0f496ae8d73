import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { slowTextRoute, type Window } from '../fixtures/slow-origin.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';
import { runJob } from '../jobs/helpers.ts';

const windows: Window[] = [];
const site = useFixture(() => startFixtureSite({ '/slow-origin/*': slowTextRoute(windows) }));
// Every slot open to one key: what is tested is the turns, not the cap that keeps slots free.
const settings = { WEBDATA_JOB_CONCURRENCY: '4', WEBDATA_JOB_SLOTS_PER_KEY: '4' };
const servers = {
  sqlite: useServer({ settings }),
  postgres: useServer({ settings, backend: 'postgres' }),
};

describe.each(['sqlite', 'postgres'] as const)(
  'job items shared between keys on %s (issue 51, row 7)',
  (backend) => {
    it("starts another key's one item within about one item's time of one key's backlog", async () => {
      const t = servers[backend];
      const backlog: string[] = [];
      for (let batch = 0; batch < 4; batch++) {
        const urls = Array.from(
          { length: 15 },
          (_, n) => `${site.origin}/slow-origin/${backend}-${batch}-${n}?ms=1500`,
        );
        const created = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
        expect(created.status).toBe(202);
        backlog.push(created.json.url);
      }
      await new Promise((r) => setTimeout(r, 1000));
      const started = Date.now();
      const done = await runJob(
        t,
        '/api/v1/scrape/async/single',
        { url: `${site.origin}/slow-origin/${backend}-other?ms=10` },
        { key: TEST_KEY_2, timeoutMs: 40_000 },
      );
      expect(done.status).toBe('completed');
      // 60 items of 1.5 s on 4 slots: first come, first served, it waited about 20 s.
      expect(Date.now() - started).toBeLessThan(6_000);
      for (const url of backlog) await t.api('DELETE', url);
    });
  },
);

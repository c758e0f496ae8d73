import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { markedGroups } from '../../src/sessions/index.ts';
import { waitFor } from '../helpers/poll.ts';
import { useServer } from '../helpers/server.ts';

// The embedded defaults: a warm spare wanted, the scraping pool launched on first use.
const t = useServer({ settings: { WEBDATA_SESSION_WARM_SPARES: '1' } });

const warmSpares = async () =>
  (await t.api('GET', '/api/v1/browser-sandbox/sessions')).json.warmSpares as number;

describe('start-up', () => {
  it('runs no browser until one is needed; the first session starts the warm spare', async () => {
    // Time for anything launched at start to show.
    await sleep(1500);
    const root = t.server.services.sessions.runtimeRoot;
    expect(await markedGroups(root)).toEqual([]);
    expect(await warmSpares()).toBe(0);
    expect(t.server.services.browser.stats().browser.launches).toBe(0);
    expect(t.server.services.browser.pids('browser')).toEqual([]);

    const created = await t.api('POST', '/api/v1/browser-sandbox/session', {});
    expect(created.status).toBe(200);
    await waitFor(async () => (await warmSpares()) === 1);
    const closed = await t.api(
      'DELETE',
      `/api/v1/browser-sandbox/session/${created.json.sessionId}`,
    );
    expect(closed.status).toBe(200);
  });

  it("a Firefox session starts Firefox's own spare, which the next Firefox create takes", async () => {
    const SESSIONS = '/api/v1/browser-sandbox/session';
    const first = await t.api('POST', SESSIONS, { browser: 'firefox' });
    expect(first.status).toBe(200);
    // Chromium's spare from the first test, and now Firefox's.
    await waitFor(async () => (await warmSpares()) === 2);
    const started = performance.now();
    const second = await t.api('POST', SESSIONS, { browser: 'firefox' });
    expect(second.json.browser).toBe('firefox');
    // Its replacement takes seconds to launch: the spare was taken, no launch was waited for.
    expect(await warmSpares()).toBe(1);
    expect(performance.now() - started).toBeLessThan(1_500);
    for (const created of [first, second])
      expect((await t.api('DELETE', `${SESSIONS}/${created.json.sessionId}`)).status).toBe(200);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { startWebhookReceiver } from '../fixtures/webhook-receiver.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';
import { checksAtLeast, FAST_MONITORS, noticePage, verifies } from './helpers.ts';

const notices = { sqlite: noticePage(), postgres: noticePage() };
const always = { sqlite: noticePage(), postgres: noticePage() };
const site = useFixture(() =>
  startFixtureSite({
    '/notices/sqlite': notices.sqlite.handler,
    '/notices/postgres': notices.postgres.handler,
    '/always/sqlite': always.sqlite.handler,
    '/always/postgres': always.postgres.handler,
  }),
);
const receiver = useFixture(startWebhookReceiver);

const eventsOf = (monitorId: string) =>
  receiver.received
    .map((d) => ({ ...d, json: JSON.parse(d.body) }))
    .filter((d) => d.json.data?.monitorId === monitorId);

describe.each(['sqlite', 'postgres'] as const)('monitors on %s', (backend) => {
  const t = useServer({ backend, settings: FAST_MONITORS });
  let secret: string | undefined;
  const create = async (body: object, key?: string) => {
    const made = await t.api('POST', '/api/v1/monitors', body, key);
    if (made.status !== 201)
      throw new Error(`POST answered ${made.status}: ${JSON.stringify(made.json)}`);
    secret ??= made.json.webhookSecret;
    return made.json.monitor;
  };

  it('fires one signed monitor.change per change, carrying the diff, and none when nothing changed', {
    timeout: 90_000,
  }, async () => {
    const page = notices[backend];
    const url = `${site.origin}/notices/${backend}`;
    const monitor = await create({
      name: 'library',
      urls: [url],
      schedule: { intervalSeconds: 2 },
      webhook: { url: receiver.url },
    });
    expect(monitor).toMatchObject({
      name: 'library',
      urls: [url],
      notify: 'change',
      status: 'active',
    });
    expect(secret).toMatch(/^whsec_/);

    // The baseline, then a check where only the clock and the counter moved.
    const [baseline] = await checksAtLeast(t, monitor.id, 1);
    expect(baseline).toMatchObject({ status: 'completed', changed: 0 });
    expect(baseline.pages).toMatchObject([{ url, status: 'new' }]);
    const [same] = await checksAtLeast(t, monitor.id, 2);
    expect(same.pages).toMatchObject([{ url, status: 'same' }]);
    expect(eventsOf(monitor.id)).toEqual([]);

    page.state.paragraphs[1] = 'Members may borrow up to ten books for four weeks at a time.';
    const checks = await waitFor(
      async () => {
        const { json } = await t.api('GET', `/api/v1/monitors/${monitor.id}/checks`);
        return json.checks.find((c: any) => c.changed > 0) && json.checks;
      },
      { timeoutMs: 20_000, everyMs: 100, what: 'a check that saw the edit' },
    );
    const changed = checks.find((c: any) => c.changed > 0);
    expect(changed.pages[0].status).toBe('changed');
    expect(changed.pages[0].diff).toContain(
      '+Members may borrow up to ten books for four weeks at a time.',
    );
    expect(changed.pages[0].cost).toBeGreaterThan(0);
    expect(changed.cost).toBe(changed.pages[0].cost);
    expect(changed.job).toBe(`/api/v1/scrape/async/job/${changed.id}`);

    const [event] = await waitFor(() => eventsOf(monitor.id).length > 0 && eventsOf(monitor.id), {
      timeoutMs: 20_000,
      what: 'the change event',
    });
    expect(verifies(secret!, event!)).toBe(true);
    expect(event!.headers['webdata-event']).toBe('monitor.change');
    expect(event!.json).toMatchObject({
      type: 'monitor.change',
      jobId: changed.id,
      data: { monitorId: monitor.id, name: 'library', checkId: changed.id, pages: 1 },
    });
    expect(event!.json.data.changes).toHaveLength(1);
    expect(event!.json.data.changes[0]).toMatchObject({ url, changeStatus: 'changed' });
    expect(event!.json.data.changes[0].diff).toContain(
      '-Members may borrow up to six books for three weeks at a time.',
    );

    // Two more checks of the unchanged page: still the one event.
    const before = (await checksAtLeast(t, monitor.id, 1)).length;
    const later = await checksAtLeast(t, monitor.id, before + 2);
    expect(later[0].pages[0].status).toBe('same');
    expect(eventsOf(monitor.id)).toHaveLength(1);

    const got = await t.api('GET', `/api/v1/monitors/${monitor.id}`);
    expect(got.json.monitor).toMatchObject({
      status: 'active',
      consecutiveFailures: 0,
      lastStatus: 'completed',
    });
    expect(got.json.monitor.checks).toBeGreaterThanOrEqual(5);
    // Each check is a job charged per page fetched.
    const charged = (await t.ledger()).filter((r) => later.some((c: any) => c.id === r.ref));
    expect(charged).toHaveLength(later.length);
  });

  it('with notify always fires monitor.check for every check', { timeout: 60_000 }, async () => {
    const url = `${site.origin}/always/${backend}`;
    const monitor = await create({
      urls: [url],
      schedule: { intervalSeconds: 2 },
      webhook: { url: receiver.url },
      notify: 'always',
    });
    await checksAtLeast(t, monitor.id, 3);
    const events = await waitFor(() => eventsOf(monitor.id).length >= 3 && eventsOf(monitor.id), {
      timeoutMs: 20_000,
      what: 'three events',
    });
    expect(events.map((e) => e.json.type)).toEqual([
      'monitor.check',
      'monitor.check',
      'monitor.check',
    ]);
    expect(new Set(events.map((e) => e.json.data.checkId)).size).toBe(3);
    expect(events.every((e) => verifies(secret!, e))).toBe(true);
    await t.api('DELETE', `/api/v1/monitors/${monitor.id}`);
  });

  it('stops checking while paused, and shows a failing monitor with its error', {
    timeout: 60_000,
  }, async () => {
    const failing = await create({
      urls: [`${site.origin}/status/500`],
      schedule: { intervalSeconds: 2 },
    });
    const ok = await create({
      urls: [`${site.origin}/notices/${backend}`],
      schedule: { intervalSeconds: 2 },
    });
    await checksAtLeast(t, failing.id, 2);
    const seen = await t.api('GET', `/api/v1/monitors/${failing.id}`);
    expect(seen.json.monitor).toMatchObject({ status: 'failing', lastStatus: 'failed' });
    expect(seen.json.monitor.consecutiveFailures).toBeGreaterThanOrEqual(2);
    expect(seen.json.monitor.lastError).toContain('/status/500');

    await checksAtLeast(t, ok.id, 1);
    const paused = await t.api('PATCH', `/api/v1/monitors/${ok.id}`, { paused: true });
    expect(paused.json.monitor).toMatchObject({ paused: true, status: 'paused' });
    // A check claimed before the pause may still end.
    await waitFor(
      async () =>
        (await t.api('GET', `/api/v1/monitors/${ok.id}`)).json.monitor.runningCheck === null,
    );
    const count = (await t.api('GET', `/api/v1/monitors/${ok.id}/checks`)).json.total;
    await sleep(5_000);
    expect((await t.api('GET', `/api/v1/monitors/${ok.id}/checks`)).json.total).toBe(count);
    const listed = await t.api('GET', '/api/v1/monitors');
    const byId = new Map(listed.json.monitors.map((m: any) => [m.id, m.status]));
    expect(byId.get(ok.id)).toBe('paused');
    expect(byId.get(failing.id)).toBe('failing');

    await t.api('PATCH', `/api/v1/monitors/${ok.id}`, { paused: false });
    await checksAtLeast(t, ok.id, count + 1);
    for (const m of [ok, failing])
      expect((await t.api('DELETE', `/api/v1/monitors/${m.id}`)).status).toBe(200);
  });

  it('lets a check be cancelled as a job', { timeout: 60_000 }, async () => {
    const monitor = await create({
      urls: [`${site.origin}/slow?ms=4000`],
      schedule: { intervalSeconds: 60 },
    });
    const running = await waitFor(
      async () => (await t.api('GET', `/api/v1/monitors/${monitor.id}`)).json.monitor.runningCheck,
    );
    const cancelled = await t.api('DELETE', `/api/v1/scrape/async/job/${running}`);
    expect(cancelled.status).toBe(200);
    const [check] = await checksAtLeast(t, monitor.id, 1);
    expect(check).toMatchObject({ id: running, status: 'cancelled', cost: 0 });
    const got = await t.api('GET', `/api/v1/monitors/${monitor.id}`);
    expect(got.json.monitor).toMatchObject({
      runningCheck: null,
      lastStatus: 'cancelled',
      status: 'active',
    });
  });

  it('answers 404 for another key and refuses bad requests naming the field', async () => {
    const monitor = await create({
      urls: [`${site.origin}/notices/${backend}`],
      schedule: { intervalSeconds: 60 },
    });
    for (const [method, path, body] of [
      ['GET', `/api/v1/monitors/${monitor.id}`],
      ['PATCH', `/api/v1/monitors/${monitor.id}`, { paused: true }],
      ['DELETE', `/api/v1/monitors/${monitor.id}`],
      ['GET', `/api/v1/monitors/${monitor.id}/checks`],
    ] as const)
      expect((await t.api(method, path, body, TEST_KEY_2)).status).toBe(404);
    expect((await t.api('GET', '/api/v1/monitors', undefined, TEST_KEY_2)).json.monitors).toEqual(
      [],
    );
    expect((await t.api('GET', `/api/v1/monitors/${monitor.id}`)).status).toBe(200);

    const url = `${site.origin}/notices/${backend}`;
    const refused: Array<[object, string]> = [
      [{ urls: [url], schedule: { cron: 'every tuesday' } }, 'schedule.cron'],
      [
        { urls: [url], schedule: { cron: '* * * * *', timezone: 'Mars/Olympus' } },
        'schedule.timezone',
      ],
      [{ urls: [url], schedule: { cron: '*/1 * * * * *' } }, 'schedule.cron'],
      [{ urls: [url], schedule: { intervalSeconds: 1 } }, 'schedule.intervalSeconds'],
      [{ urls: [url], schedule: {} }, 'schedule'],
      [
        {
          urls: [url],
          schedule: { intervalSeconds: 60 },
          formats: ['markdown', { type: 'changeTracking', modes: ['word-diff'] }],
        },
        'formats',
      ],
      [
        {
          urls: Array.from({ length: 6 }, (_, i) => `${url}?n=${i}`),
          schedule: { intervalSeconds: 60 },
        },
        'urls',
      ],
      [{ schedule: { intervalSeconds: 60 } }, 'urls'],
      [{ crawl: { url, limit: 50 }, schedule: { intervalSeconds: 60 } }, 'crawl.limit'],
      [{ crawl: { url: 'ftp://example.test/' }, schedule: { intervalSeconds: 60 } }, 'crawl.url'],
      [{ urls: [url], schedule: { intervalSeconds: 60 }, notify: 'sometimes' }, 'notify'],
    ];
    for (const [body, field] of refused) {
      const answer = await t.api('POST', '/api/v1/monitors', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.details[0].field, JSON.stringify(answer.json)).toMatch(
        new RegExp(`^${field.replace('.', '\\.')}`),
      );
    }
    const patched = await t.api('PATCH', `/api/v1/monitors/${monitor.id}`, {
      schedule: { intervalSeconds: 1 },
    });
    expect(patched.json.details[0].field).toBe('schedule.intervalSeconds');
    expect(
      (
        await t.api(
          'POST',
          '/api/v1/monitors',
          { urls: [url], schedule: { intervalSeconds: 60 } },
          null,
        )
      ).status,
    ).toBe(401);
  });
});

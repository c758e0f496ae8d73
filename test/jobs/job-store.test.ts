import { beforeAll, describe, expect, it } from 'vitest';
import { Meter } from '../../src/billing/index.ts';
import { JobStore } from '../../src/jobs/index.ts';
import { registry } from '../../src/metrics/index.ts';
import { LedgerStore } from '../../src/store/index.ts';
import { storeBackends } from '../helpers/backends.ts';
import { useFixture } from '../helpers/fixture.ts';

/** The guarantees the engines rest on, checked on both backends with racing callers. */
describe.each(storeBackends)('job store on %s', (_name, open) => {
  const database = useFixture(open);
  let store: JobStore;
  beforeAll(() => {
    store = new JobStore(database.db);
  });

  const create = (userId: string, n: number) =>
    store.create(
      {
        userId,
        type: 'scrape-batch',
        inputs: Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}` })),
        ttlMs: 60_000,
      },
      async () => undefined,
    );
  const charged = (userId: string, jobId: string) => {
    const meter = new Meter(userId, jobId);
    meter.charge('scrape', 1, 2000);
    return meter;
  };

  it('claims an item once, records its result and charge once however many racers, and completes the job', async () => {
    const job = await create('u1', 2);
    const ref = (index: number) => ({ jobId: job.id, index, userId: 'u1', type: job.type });
    const claims = await Promise.all([
      store.claim(ref(0), ['pending']),
      store.claim(ref(0), ['pending']),
    ]);
    expect(claims.filter(Boolean).length).toBe(1);
    expect(claims.find(Boolean)).toMatchObject({
      input: { url: 'https://example.com/0' },
      attempts: 1,
    });
    expect((await store.get('u1', job.id))!.status).toBe('processing');

    // A runner presumed dead and its replacement both finish: one result, one charge.
    const recorded = await Promise.all(
      [1, 2, 3].map((n) => store.record(job.id, 0, { result: { n } }, charged('u1', job.id))),
    );
    expect(recorded.filter(Boolean).length).toBe(1);
    await store.claim(ref(1), ['pending']);
    expect(await store.record(job.id, 1, { result: { n: 9 } }, charged('u1', job.id))).toBe(true);

    const done = (await store.get('u1', job.id))!;
    expect(done).toMatchObject({ status: 'completed', completed: 2, costMicros: 4000 });
    const ledger = (await new LedgerStore(database.db).forUser('u1')).filter(
      (r) => r.ref === job.id,
    );
    expect(ledger.length).toBe(2);
    expect((await store.page('u1', job.id, 0, 10))!.data.length).toBe(2);
    expect(await store.cancel('u1', job.id)).toMatchObject({ kind: 'finished' });
  });

  it('after a cancel nothing is claimed or recorded, and another user cannot see or cancel the job', async () => {
    const job = await create('u2', 3);
    const ref = (index: number) => ({ jobId: job.id, index, userId: 'u2', type: job.type });
    await store.claim(ref(0), ['pending']);
    expect(await store.cancel('someone-else', job.id)).toEqual({ kind: 'missing' });
    expect(await store.get('someone-else', job.id)).toBeUndefined();
    expect(await store.cancel('u2', job.id)).toMatchObject({ kind: 'cancelled' });
    expect(await store.record(job.id, 0, { result: { late: true } }, charged('u2', job.id))).toBe(
      false,
    );
    expect(await store.claim(ref(1), ['pending'])).toBeUndefined();
    expect(await store.isActive(job.id)).toBe(false);
    expect((await store.get('u2', job.id))!).toMatchObject({
      status: 'cancelled',
      completed: 0,
      costMicros: 0,
    });
    expect((await new LedgerStore(database.db).forUser('u2')).length).toBe(0);
  });

  it('puts running items back in line after a crash, counting the attempt', async () => {
    const job = await create('u3', 1);
    const ref = { jobId: job.id, index: 0, userId: 'u3', type: job.type };
    await store.claim(ref, ['pending']);
    expect(await store.requeueRunning()).toBeGreaterThanOrEqual(1);
    expect(await store.nextPending()).toEqual(ref);
    expect((await store.claim(ref, ['pending']))!.attempts).toBe(2);
    await store.release(job.id, 0);
    expect((await store.claim(ref, ['pending']))!.attempts).toBe(2);
  });

  it('sweeps expired jobs and their items and webhook events, leaving live ones', async () => {
    const live = await create('u4', 1);
    const webhook = {
      url: 'https://hooks.example.com/',
      headers: {},
      events: ['started' as const],
    };
    const old = await store.create(
      {
        userId: 'u4',
        type: 'scrape-single',
        inputs: [{ url: 'https://example.com/' }],
        webhook,
        ttlMs: 5_000,
      },
      async () => undefined,
    );
    await store.claim({ jobId: old.id, index: 0, userId: 'u4', type: old.type }, ['pending']);
    expect(
      (
        await database.db
          .selectFrom('webhook_events')
          .select('event')
          .where('job_id', '=', old.id)
          .execute()
      ).map((e) => e.event),
    ).toEqual(['started']);
    // Sweeping as of a moment after its expiry, and before the live job's.
    const later = Date.now() + 10_000;
    expect(await store.get('u4', old.id, later)).toBeUndefined();
    expect(await store.sweep(later)).toBeGreaterThanOrEqual(1);
    for (const table of ['job_items', 'webhook_events'] as const) {
      const left = await database.db
        .selectFrom(table)
        .select('job_id')
        .where('job_id', '=', old.id)
        .execute();
      expect(left, table).toEqual([]);
    }
    expect((await store.list('u4', { page: 1, limit: 10 })).jobs.map((j) => j.id)).toEqual([
      live.id,
    ]);
  });

  it('counts the items of active jobs waiting and running, and a racing record is charged in the metrics once', async () => {
    const scrapeUsd = async () =>
      (await registry.getSingleMetric('webdata_charges_usd_total')!.get()).values.find(
        (v) => v.labels.operation === 'scrape',
      )?.value ?? 0;
    const before = await store.itemCounts();
    const job = await create('u-count', 3);
    expect(await store.itemCounts()).toEqual({
      pending: before.pending + 3,
      running: before.running,
    });
    await store.claim({ jobId: job.id, index: 0, userId: 'u-count', type: job.type }, ['pending']);
    expect(await store.itemCounts()).toEqual({
      pending: before.pending + 2,
      running: before.running + 1,
    });

    const usdBefore = await scrapeUsd();
    const recorded = await Promise.all(
      [1, 2, 3].map((n) => store.record(job.id, 0, { result: { n } }, charged('u-count', job.id))),
    );
    expect(recorded.filter(Boolean).length).toBe(1);
    expect((await scrapeUsd()) - usdBefore).toBeCloseTo(0.002, 9);
    expect(await store.itemCounts()).toEqual({
      pending: before.pending + 2,
      running: before.running,
    });

    await store.cancel('u-count', job.id);
    expect(await store.itemCounts()).toEqual(before);
  });
});

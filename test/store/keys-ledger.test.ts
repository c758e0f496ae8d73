import { describe, expect, it } from 'vitest';
import { KeyStore, LedgerStore } from '../../src/store/index.ts';
import { storeBackends } from '../helpers/backends.ts';
import { useFixture } from '../helpers/fixture.ts';

describe.each(storeBackends)('store on %s', (_name, open) => {
  const database = useFixture(open);

  it('creates, authenticates, lists and revokes keys, storing only hashes', async () => {
    const keys = new KeyStore(database.db);
    const { key, info } = await keys.create('alice');
    expect(key).toMatch(/^wd_[\w-]{43}$/);
    expect((await keys.authenticate(key))?.userId).toBe(info.userId);
    expect(await keys.authenticate(`${key}x`)).toBeUndefined();
    const listed = await keys.list();
    expect(listed.map((k) => k.name)).toContain('alice');
    expect(
      JSON.stringify(await database.db.selectFrom('api_keys').selectAll().execute()),
    ).not.toContain(key);
    expect(await keys.revoke(info.prefix)).toBe(1);
    expect(await keys.authenticate(key)).toBeUndefined();
  });

  it('ensures configured keys idempotently, each its own user', async () => {
    const keys = new KeyStore(database.db);
    const a = await keys.ensure('configured-key-aaaaaaaaaaaa', 'env-1');
    const again = await keys.ensure('configured-key-aaaaaaaaaaaa', 'env-1');
    const b = await keys.ensure('configured-key-bbbbbbbbbbbb', 'env-2');
    expect(again.id).toBe(a.id);
    expect(b.userId).not.toBe(a.userId);
  });

  it('records ledger rows in integer micro-dollars', async () => {
    const ledger = new LedgerStore(database.db);
    await ledger.record([
      { userId: 'u1', operation: 'scrape', units: 1, costMicros: 2000 },
      { userId: 'u1', operation: 'search', units: 1, costMicros: 8000, ref: 'job-1' },
      { userId: 'u2', operation: 'map', units: 1, costMicros: 2000 },
    ]);
    const rows = await ledger.forUser('u1');
    expect(rows.map((r) => [r.operation, r.costMicros, r.ref])).toEqual([
      ['scrape', 2000, null],
      ['search', 8000, 'job-1'],
    ]);
    expect(typeof rows[0]!.createdAt).toBe('number');
  });

  it("adds a user's charges up by UTC day and operation, within [from, to)", async () => {
    const ledger = new LedgerStore(database.db);
    const day = 86_400_000;
    const d0 = Date.UTC(2026, 0, 10);
    const row = (
      userId: string,
      operation: string,
      units: number,
      costMicros: number,
      at: number,
    ) => ({
      id: `${userId}-${operation}-${at}`,
      user_id: userId,
      operation,
      units,
      cost_micros: costMicros,
      ref: null,
      created_at: at,
    });
    await database.db
      .insertInto('usage_ledger')
      .values([
        row('uday', 'scrape', 1, 2000, d0),
        row('uday', 'scrape', 2, 4000, d0 + day - 1),
        row('uday', 'search', 1, 8000, d0 + 5),
        row('uday', 'scrape', 1, 2000, d0 + day),
        row('uday', 'map', 1, 2000, d0 - 1),
        row('uday', 'map', 1, 2000, d0 + 2 * day),
        row('other', 'scrape', 1, 2000, d0 + 1),
      ])
      .execute();
    const first = d0 / day;
    expect(await ledger.usageByDay('uday', d0, d0 + 2 * day)).toEqual([
      { day: first, operation: 'scrape', units: 3, costMicros: 6000, charges: 2 },
      { day: first, operation: 'search', units: 1, costMicros: 8000, charges: 1 },
      { day: first + 1, operation: 'scrape', units: 1, costMicros: 2000, charges: 1 },
    ]);
  });
});

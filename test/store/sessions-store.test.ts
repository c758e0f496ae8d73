import { describe, expect, it } from 'vitest';
import { ProfileStore, type SessionRow, SessionStore } from '../../src/store/index.ts';
import { storeBackends } from '../helpers/backends.ts';
import { useFixture } from '../helpers/fixture.ts';

function row(id: string, over: Partial<SessionRow> = {}): SessionRow {
  return {
    id,
    user_id: 'u1',
    status: 'active',
    browser: 'chromium',
    headless: 1,
    proxy: 0,
    width: 1280,
    height: 720,
    token_hash: 'h',
    instance_url: 'http://a',
    storage_state: null,
    last_url: null,
    close_reason: null,
    created_at: 1_795_000_000_000,
    started_at: 1_795_000_000_000,
    closed_at: null,
    last_activity_at: 1_795_000_000_000,
    billed_micros: 0,
    ...over,
  };
}

describe.each(storeBackends)('session store on %s', (_name, open) => {
  const database = useFixture(open);

  it('closes and reopens a session once each, and finds the active sessions of an instance', async () => {
    const store = new SessionStore(database.db);
    await store.insert(row('s1'));
    await store.insert(row('s2', { instance_url: 'http://b' }));
    expect((await store.activeOn('http://a')).map((r) => r.id)).toEqual(['s1']);

    const patch = {
      close_reason: 'manual',
      closed_at: 1_795_000_060_000,
      billed_micros: 2_000,
      storage_state: '{"cookies":[],"origins":[]}',
    };
    expect(await store.closeIfActive('s1', patch)).toBe(true);
    expect(await store.closeIfActive('s1', patch)).toBe(false);
    const closed = (await store.get('s1'))!;
    expect(closed).toMatchObject({
      status: 'closed',
      close_reason: 'manual',
      billed_micros: 2_000,
      headless: 1,
      proxy: 0,
      closed_at: 1_795_000_060_000,
    });
    expect(await store.activeOn('http://a')).toEqual([]);

    expect(await store.reopenIfClosed('s1', { close_reason: null, closed_at: null })).toBe(true);
    expect(await store.reopenIfClosed('s1', { close_reason: null, closed_at: null })).toBe(false);
    expect((await store.get('s1'))!.status).toBe('active');
    expect(await store.get('missing')).toBeUndefined();
  });

  it('gives a profile to one session at a time, per user, and frees those of inactive sessions', async () => {
    const sessions = new SessionStore(database.db);
    const profiles = new ProfileStore(database.db);
    expect(await profiles.create('u1', 'shop', 1_795_000_000_000)).toBe(true);
    expect(await profiles.create('u1', 'shop', 1_795_000_000_001)).toBe(false);
    expect(await profiles.create('u2', 'shop', 1_795_000_000_002)).toBe(true);
    expect(await profiles.acquire('u1', 'shop', 'p1')).toBe(true);
    expect(await profiles.acquire('u1', 'shop', 'p2')).toBe(false);
    expect(await profiles.acquire('u2', 'shop', 'p2')).toBe(true);
    expect(await profiles.deleteIfFree('u1', 'shop')).toBe(false);
    // Only the holder gives it back.
    await profiles.release('u1', 'shop', 'p2', 1);
    expect((await profiles.get('u1', 'shop'))!.in_use_by).toBe('p1');
    await profiles.release('u1', 'shop', 'p1', 1_795_000_100_000);
    expect(await profiles.get('u1', 'shop')).toEqual({
      user_id: 'u1',
      name: 'shop',
      created_at: 1_795_000_000_000,
      saved_at: 1_795_000_100_000,
      in_use_by: null,
    });
    // At start-up: a holder still active keeps its profile; a closed or unrecorded one does not.
    await sessions.insert(row('p3'));
    await sessions.insert(row('p4', { status: 'closed' }));
    expect(await profiles.acquire('u1', 'shop', 'p3')).toBe(true);
    await profiles.create('u1', 'home', 1);
    expect(await profiles.acquire('u1', 'home', 'p4')).toBe(true);
    await profiles.releaseInactive();
    expect((await profiles.list('u1')).map((p) => [p.name, p.in_use_by])).toEqual([
      ['home', null],
      ['shop', 'p3'],
    ]);
    expect((await profiles.get('u2', 'shop'))!.in_use_by).toBe(null);
    expect(await profiles.deleteIfFree('u1', 'home')).toBe(true);
    expect(await profiles.get('u1', 'home')).toBeUndefined();
  });
});

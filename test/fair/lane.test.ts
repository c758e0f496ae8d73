import { describe, expect, it } from 'vitest';
import { FairLane, FairQueue } from '../../src/fair/index.ts';

describe('FairQueue', () => {
  it('serves keys in turn, first in first out within a key, a new key next', () => {
    const q = new FairQueue<string>();
    for (let i = 1; i <= 4; i++) q.push('a', `a${i}`);
    expect(q.shift()?.item).toBe('a1');
    q.push('b', 'b1');
    q.push('b', 'b2');
    const order = [];
    while (q.size > 0) order.push(q.shift()!.item);
    expect(order).toEqual(['b1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('lets no key whose items come back one by one keep a waiting key out', () => {
    // Two streams of key a, a place each in turn: each item of a comes back the moment the other
    // is served. b, waiting all along, is served after one item of a, not never.
    const q = new FairQueue<string>();
    q.push('b', 'b1');
    q.push('a', 'a1');
    const order = [q.shift()!.item];
    q.push('a', 'a2');
    order.push(q.shift()!.item);
    expect(order).toEqual(['a1', 'b1']);
  });

  it('skips keys the caller does not accept, and forgets removed items', () => {
    const q = new FairQueue<string>();
    q.push('a', 'a1');
    q.push('b', 'b1');
    expect(q.shift((k) => k !== 'b')?.item).toBe('a1');
    expect(q.remove('b', 'b1')).toBe(true);
    expect(q.remove('b', 'b1')).toBe(false);
    expect(q.size).toBe(0);
    expect(q.keys()).toEqual([]);
  });
});

describe('FairLane', () => {
  it('caps a key at its share and gives freed places to waiting keys in turn', async () => {
    const lane = new FairLane({ capacity: 3, perKey: 2 });
    const a1 = await lane.acquire('a');
    await lane.acquire('a');
    const granted: string[] = [];
    const a3 = lane.acquire('a').then((r) => {
      granted.push('a3');
      return r;
    });
    const b1 = await lane.acquire('b');
    const b2 = lane.acquire('b').then((r) => {
      granted.push('b2');
      return r;
    });
    expect(lane.used).toBe(3);
    // b came to the line after a, but as a key new to it: it is served first.
    a1();
    await b2;
    expect(granted).toEqual(['b2']);
    expect(lane.waiting).toBe(1);
    b1();
    await a3;
    expect(granted).toEqual(['b2', 'a3']);
    expect(lane.heldBy('a')).toBe(2);
  });

  it('never lets one key take a place beyond its cap, even with places free', async () => {
    const lane = new FairLane({ capacity: 4, perKey: 1 });
    await lane.acquire('a');
    let second = false;
    void lane.acquire('a').then(() => (second = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(second).toBe(false);
    expect(lane.free('b')).toBe(true);
  });

  it('rejects a wait past its deadline and an aborted wait, leaving the line', async () => {
    const lane = new FairLane({ capacity: 1, perKey: 1 });
    await lane.acquire('a');
    await expect(lane.acquire('b', { waitMs: 20, busy: () => new Error('busy') })).rejects.toThrow(
      'busy',
    );
    const ac = new AbortController();
    const gone = lane.acquire('c', { signal: ac.signal });
    ac.abort(new Error('left'));
    await expect(gone).rejects.toThrow('left');
    expect(lane.waiting).toBe(0);
  });

  it('runs work holding a place and hands it back whether the work ends or throws', async () => {
    const lane = new FairLane({ capacity: 1, perKey: 1 });
    const seen = await lane.run('a', async () => lane.used);
    expect(seen).toBe(1);
    expect(lane.used).toBe(0);
    await expect(
      lane.run('a', async () => {
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(lane.used).toBe(0);
    expect(lane.free('b')).toBe(true);
  });
});

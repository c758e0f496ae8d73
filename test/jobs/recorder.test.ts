import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Meter } from '../../src/billing/index.ts';
import type { JobStore } from '../../src/jobs/index.ts';
import type { ItemRecord } from '../../src/jobs/record.ts';
import { ItemRecorder } from '../../src/jobs/recorder.ts';

/** A store that only notes the batches it is asked to write. */
function notingStore(batches: number[][]): JobStore {
  return {
    recordMany: async (records: ItemRecord[]) => {
      batches.push(records.map((r) => r.index));
      return { recorded: new Set<string>(), events: false, added: false };
    },
  } as unknown as JobStore;
}

const hooks = { enqueue: async () => undefined, settle: async () => undefined, recorded: () => {} };
const item = (index: number) => ({ jobId: 'j1', index });
const ok = { result: { success: true, cost: 0 } };

describe('item recorder', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds a result while other items run, so results ending close together share one write', async () => {
    const batches: number[][] = [];
    const recorder = new ItemRecorder(notingStore(batches), hooks, () => true);
    const first = recorder.record(item(0), ok, new Meter('u1', 'j1'));
    await vi.advanceTimersByTimeAsync(5);
    expect(batches).toEqual([]);
    const second = recorder.record(item(1), ok, new Meter('u1', 'j1'));
    await vi.advanceTimersByTimeAsync(5);
    await Promise.all([first, second]);
    expect(batches).toEqual([[0, 1]]);
  });

  it('writes a result at once when no other item runs, as nothing could join it', async () => {
    const batches: number[][] = [];
    let others = true;
    const recorder = new ItemRecorder(notingStore(batches), hooks, () => others);
    others = false;
    await recorder.record(item(0), ok, new Meter('u1', 'j1'));
    expect(batches).toEqual([[0]]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

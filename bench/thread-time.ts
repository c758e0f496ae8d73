import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where this process's threads spent a stretch of wall time, from Linux's per-thread scheduler
 * statistics: on a CPU, runnable but waiting for one (other processes had the cores), or idle
 * (nothing to do). CPU time alone cannot tell a pipeline that leaves cores idle from a machine
 * whose cores other work holds; the wait time can. Threads are grouped by name (`MainThread`,
 * `WorkerThread` for worker threads, `V8Worker` for V8's GC and compiler helpers).
 */
export interface ThreadTimes {
  /** Threads of the group alive at the end. */
  threads: number;
  runMs: number;
  waitMs: number;
}

type Snapshot = Map<string, { name: string; runMs: number; waitMs: number }>;

/** Per-thread run and wait times now; empty where /proc has no schedstat (not Linux). */
export function threadSnapshot(): Snapshot {
  const out: Snapshot = new Map();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ');
      out.set(tid, { name, runMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 });
    } catch {
      // The thread ended since the listing.
    }
  }
  return out;
}

/** Adds what each group of threads did between two snapshots to `into`. */
export function addThreadTimes(
  into: Map<string, ThreadTimes>,
  before: Snapshot,
  after: Snapshot,
): void {
  const seen = new Map<string, number>();
  for (const [tid, t] of after) {
    const b = before.get(tid);
    const group = into.get(t.name) ?? { threads: 0, runMs: 0, waitMs: 0 };
    group.runMs += t.runMs - (b?.runMs ?? 0);
    group.waitMs += t.waitMs - (b?.waitMs ?? 0);
    seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
    into.set(t.name, group);
  }
  for (const [name, count] of seen) into.get(name)!.threads = count;
}

/** A group's time on a CPU, waiting for one and idle, in percent of `wallMs` per thread. */
export function threadShares(
  t: ThreadTimes,
  wallMs: number,
): { run: number; wait: number; idle: number } {
  const pct = (ms: number) => (100 * ms) / (wallMs * t.threads);
  const run = pct(t.runMs);
  const wait = pct(t.waitMs);
  return { run, wait, idle: Math.max(0, 100 - run - wait) };
}

/** "on CPU / waiting for a CPU / idle" per thread of each group busy for 1% of `wallMs` or more. */
export function describeThreadTimes(times: Map<string, ThreadTimes>, wallMs: number): string {
  return [...times]
    .filter(([, t]) => t.runMs > 0.01 * wallMs)
    .sort((a, b) => b[1].runMs - a[1].runMs)
    .map(([name, t]) => {
      const { run, wait, idle } = threadShares(t, wallMs);
      return `${name} x${t.threads} ${run.toFixed(0)}% / ${wait.toFixed(0)}% / ${idle.toFixed(0)}%`;
    })
    .join(', ');
}

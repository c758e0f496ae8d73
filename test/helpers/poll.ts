import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** How long to keep asking; 15 s unless given. */
  timeoutMs?: number;
  /** The pause between two probes; 50 ms unless given. */
  everyMs?: number;
  /** What is awaited, for the error; a function to describe the last state seen. */
  what?: string | (() => string);
}

/**
 * Asks `probe` until it answers something truthy and returns that answer. A probe that throws
 * ends the wait at once: an error is an answer, not a state to wait out.
 */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  opts: WaitOptions = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      const what = typeof opts.what === 'function' ? opts.what() : (opts.what ?? 'a condition');
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await sleep(opts.everyMs ?? 50);
  }
}

/** The value of `work` and how long it took to settle. */
export async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

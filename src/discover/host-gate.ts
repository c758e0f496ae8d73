import { FairLane, type Release } from '../fair/index.ts';

interface Host {
  /** Requests in flight to the host, across keys: the politeness ceiling, shared in turn. */
  lane: FairLane;
  /** When each key may next start a request to the host (its own pacing). */
  nextStart: Map<string, number>;
}

/**
 * Per-host politeness inside one process, for crawls of many users at once. Each key (user) is
 * paced on its own: its starts to a host at least its `delayMs` apart, waited out without holding
 * anything, so one crawl's long delay never slows another's. Across keys, a host has at most
 * `perHost` requests in flight, and freed places go to the keys in turn (`FairLane`): one key's
 * backlog delays another's page by about one page.
 */
export class HostGate {
  readonly #perHost: number;
  readonly #hosts = new Map<string, Host>();

  constructor(perHost: number) {
    this.#perHost = perHost;
  }

  /** Waits for a turn; the answer releases it. Rejects with the signal's reason when aborted first. */
  async acquire(key: string, host: string, delayMs: number, signal: AbortSignal): Promise<Release> {
    let h = this.#hosts.get(host);
    if (!h) {
      h = {
        lane: new FairLane({ capacity: this.#perHost, perKey: this.#perHost }),
        nextStart: new Map(),
      };
      this.#hosts.set(host, h);
    }
    const now = Date.now();
    const at = Math.max(now, h.nextStart.get(key) ?? 0);
    h.nextStart.set(key, at + delayMs);
    try {
      if (at > now) await sleep(at - now, signal);
      const release = await h.lane.acquire(key, { signal });
      return () => {
        release();
        this.#forget(host);
      };
    } catch (err) {
      this.#forget(host);
      throw err;
    }
  }

  /** Drops a host nobody is at or paced for, so the map holds only hosts in use. */
  #forget(host: string): void {
    const h = this.#hosts.get(host);
    if (!h || h.lane.used > 0 || h.lane.waiting > 0) return;
    const now = Date.now();
    for (const [key, at] of h.nextStart) if (at <= now) h.nextStart.delete(key);
    if (h.nextStart.size === 0) this.#hosts.delete(host);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

import { FairLane, type Release } from '../fair/index.ts';

interface Host {
  /** Requests in flight to the host, across keys: the politeness ceiling, shared in turn. */
  lane: FairLane;
  /** Each key's last start to the host and its delay (its own pacing). */
  started: Map<string, { at: number; delayMs: number }>;
  /** Callers waiting out their key's delay, who hold no place in the lane. */
  pacing: number;
}

/**
 * Per-host politeness inside one process, for crawls of many users at once. Each key (user) is
 * paced on its own: its starts to a host at least its `delayMs` apart, waited out without holding
 * anything, so one crawl's long delay never slows another's; nothing is reserved ahead, so a
 * cancelled crawl leaves no wait behind. Across keys, a host has at most `perHost` requests in
 * flight, and freed places go to the keys in turn (`FairLane`): one key's backlog delays another's
 * page by about one page.
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
        started: new Map(),
        pacing: 0,
      };
      this.#hosts.set(host, h);
    }
    const due = () => (h.started.get(key)?.at ?? Number.NEGATIVE_INFINITY) + delayMs - Date.now();
    try {
      for (;;) {
        const wait = due();
        if (wait > 0) {
          h.pacing++;
          try {
            await sleep(wait, signal);
          } finally {
            h.pacing--;
          }
          continue;
        }
        const release = await h.lane.acquire(key, { signal });
        // Another request of this key may have started while this one waited for a place.
        if (due() > 0) {
          release();
          continue;
        }
        h.started.set(key, { at: Date.now(), delayMs });
        return () => {
          release();
          this.#forget(host);
        };
      }
    } catch (err) {
      this.#forget(host);
      throw err;
    }
  }

  /** Drops a host nobody is at, waiting for or paced for, so the map holds only hosts in use. */
  #forget(host: string): void {
    const h = this.#hosts.get(host);
    if (!h || h.lane.used > 0 || h.lane.waiting > 0 || h.pacing > 0) return;
    const now = Date.now();
    for (const [key, s] of h.started) if (s.at + s.delayMs <= now) h.started.delete(key);
    if (h.started.size === 0) this.#hosts.delete(host);
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

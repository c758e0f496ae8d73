/**
 * Per-host politeness inside one process: at most `perHost` requests to a host at once, and each
 * start at least `delayMs` after the previous start to that host. Waiters are served in order.
 */
export class HostGate {
  readonly #perHost: number;
  readonly #hosts = new Map<
    string,
    { active: number; lastStart: number; waiters: Array<() => void> }
  >();

  constructor(perHost: number) {
    this.#perHost = perHost;
  }

  /** Waits for a turn; the answer releases it. Rejects with the signal's reason when aborted first. */
  async acquire(host: string, delayMs: number, signal: AbortSignal): Promise<() => void> {
    let state = this.#hosts.get(host);
    if (!state) {
      state = { active: 0, lastStart: 0, waiters: [] };
      this.#hosts.set(host, state);
    }
    const s = state;
    // A slot first: in order, so a busy host cannot starve one caller.
    if (s.active >= this.#perHost || s.waiters.length > 0) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          s.waiters.splice(s.waiters.indexOf(wake), 1);
          reject(signal.reason);
        };
        s.waiters.push(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    s.active++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      s.active--;
      const next = s.waiters.shift();
      if (next) next();
      else if (s.active === 0 && Date.now() - s.lastStart >= delayMs) this.#hosts.delete(host);
    };
    const wait = s.lastStart + delayMs - Date.now();
    s.lastStart = Math.max(Date.now(), s.lastStart + delayMs);
    if (wait > 0) {
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          }, wait);
          const onAbort = () => {
            clearTimeout(timer);
            reject(signal.reason);
          };
          signal.addEventListener('abort', onAbort, { once: true });
        });
      } catch (err) {
        release();
        throw err;
      }
    }
    return release;
  }
}

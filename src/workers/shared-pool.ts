/**
 * A worker pool the whole process shares, started on first use and held by each service while it
 * runs: the last release ends its threads, so a stopped service leaves none behind (an idle
 * time-out alone would keep them, and a task running past its service's end), and a use after
 * that starts a fresh one. A count rather than one owner, because tests and an embedded client
 * run services side by side in one process, and the checks deep in the rooms reach the pool
 * without a handle to a service.
 */
export class SharedPool<P extends { close(): Promise<void> }> {
  readonly #make: () => P;
  #made: P | undefined;
  #holders = 0;

  constructor(make: () => P) {
    this.#make = make;
  }

  get(): P {
    this.#made ??= this.#make();
    return this.#made;
  }

  /** Holds the pool for one service until the returned release; releasing twice does nothing. */
  hold(): () => Promise<void> {
    this.#holders++;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      if (--this.#holders > 0 || !this.#made) return;
      const ending = this.#made;
      this.#made = undefined;
      await ending.close();
    };
  }
}

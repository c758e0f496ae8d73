import { FairLane } from '../fair/index.ts';
import { DeadlinePool, SharedPool, TaskDeadlineError } from '../workers/index.ts';
import type { PathFilter } from './path-worker.ts';

/**
 * How long one batch of path-pattern work (a crawl page's links, or a request's patterns
 * compiled) may take on the matcher's thread, counted from when the thread takes it. Past it the
 * thread is ended, so no pattern holds it, and the page's links are not followed.
 */
export const PATH_MATCH_DEADLINE_MS = 2000;

export class PathMatchDeadlineError extends Error {
  constructor() {
    super(
      `matching links to includePaths/excludePaths took longer than ${PATH_MATCH_DEADLINE_MS} ms`,
    );
  }
}

/**
 * Callers' path patterns, compiled and matched on a thread of their own: RE2 matches in time
 * linear in the path, but the factor is the pattern's compiled size, so one large pattern against
 * long paths costs seconds that must not stop the event loop. One thread, started on first use
 * and ended when idle: most crawls have no patterns at all.
 */
class PathMatcher {
  readonly #pool = new DeadlinePool({
    filename: new URL('./path-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 30_000,
  });

  /**
   * The thread taken by keys in turn: one key's crawls matching pages of links held another key's
   * batches behind them in arrival order, each up to the deadline.
   */
  readonly #lane = new FairLane({ capacity: 1, perKey: 1 });

  async #run<T>(name: string, task: object, key: string, signal?: AbortSignal): Promise<T> {
    try {
      return await this.#lane.run(
        key,
        () => this.#pool.run<T>(name, task, { timeoutMs: PATH_MATCH_DEADLINE_MS, signal }),
        { signal },
      );
    } catch (err) {
      if (err instanceof TaskDeadlineError) throw new PathMatchDeadlineError();
      throw err;
    }
  }

  /** Why each pattern cannot be used, or null, in `key`'s turn: checked at the request, off the event loop too (compiling is the same work). */
  problems(patterns: string[], key: string): Promise<Array<string | null>> {
    return this.#run('problems', { patterns }, key);
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  /** Whether each path passes the patterns, in `key`'s turn. Throws PathMatchDeadlineError past the deadline. */
  filter(filter: PathFilter, key: string, signal?: AbortSignal): Promise<boolean[]> {
    return this.#run('filter', filter, key, signal);
  }
}

const shared = new SharedPool(() => new PathMatcher());

/** The process's one path matcher. */
export function pathMatcher(): PathMatcher {
  return shared.get();
}

/** Holds the path matcher for one service, until the returned release (SharedPool). */
export function holdPathMatcher(): () => Promise<void> {
  return shared.hold();
}

import { DeadlinePool, TaskDeadlineError } from '../workers/index.ts';
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

  async #run<T>(name: string, task: object, signal?: AbortSignal): Promise<T> {
    try {
      return await this.#pool.run<T>(name, task, { timeoutMs: PATH_MATCH_DEADLINE_MS, signal });
    } catch (err) {
      if (err instanceof TaskDeadlineError) throw new PathMatchDeadlineError();
      throw err;
    }
  }

  /** Why each pattern cannot be used, or null: checked at the request, off the event loop too (compiling is the same work). */
  problems(patterns: string[]): Promise<Array<string | null>> {
    return this.#run('problems', { patterns });
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  /** Whether each path passes the patterns. Throws PathMatchDeadlineError past the deadline. */
  filter(filter: PathFilter, signal?: AbortSignal): Promise<boolean[]> {
    return this.#run('filter', filter, signal);
  }
}

let shared: PathMatcher | undefined;
/** Services holding the matcher open (see holdPathMatcher). */
let holders = 0;

/** The process's one path matcher. */
export function pathMatcher(): PathMatcher {
  shared ??= new PathMatcher();
  return shared;
}

/**
 * Holds the path matcher for one service, until the returned release: the last release ends its
 * thread (an idle timeout alone would keep a stopped service's thread for 30 s, and a task
 * running past its service's end), and the next use starts a fresh one. Counted, as for the
 * schema workers: services run side by side in one process.
 */
export function holdPathMatcher(): () => Promise<void> {
  holders++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--holders > 0 || !shared) return;
    const ending = shared;
    shared = undefined;
    await ending.close();
  };
}

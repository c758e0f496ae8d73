import { parentPort } from 'node:worker_threads';
import { Piscina } from 'piscina';

/** Posted by a worker as it begins a task, so the task's deadline counts from there. */
interface TaskStarted {
  taskStarted: number;
}

/** Called first by every task a DeadlinePool hands out, with the `id` the task was given. */
export function taskStarted(id: number): void {
  parentPort?.postMessage({ taskStarted: id } satisfies TaskStarted);
}

/** A task outlived its deadline; its thread was ended with it (piscina starts a fresh one). */
export class TaskDeadlineError extends Error {}

export interface DeadlineRun {
  timeoutMs: number;
  /** The caller's own abort: it wins over the deadline, and its error passes through as is. */
  signal?: AbortSignal;
  transferList?: ArrayBuffer[];
}

/**
 * A piscina pool whose every task runs under a deadline that starts when a worker takes it, not
 * when it is queued: time spent behind other tasks, or waiting for a replacement thread to boot,
 * is not this task's doing. Past the deadline the task is aborted, which ends its thread, so no
 * input, whatever its shape, holds a worker that others wait for. The one such mechanism for
 * content conversion, caller schemas and path patterns.
 */
export class DeadlinePool {
  readonly piscina: Piscina;
  /** Tasks handed over but not finished, by id: what to do when a worker starts one. */
  readonly #onStart = new Map<number, () => void>();
  #nextId = 0;

  constructor(options: ConstructorParameters<typeof Piscina>[0]) {
    this.piscina = new Piscina(options);
    this.piscina.on('message', (message: unknown) => {
      const id = (message as TaskStarted | null)?.taskStarted;
      if (typeof id === 'number') this.#onStart.get(id)?.();
    });
  }

  /** Ends every thread; tasks still queued or running are rejected. */
  close(): Promise<void> {
    return this.piscina.destroy();
  }

  async run<T>(name: string, task: object, o: DeadlineRun): Promise<T> {
    const id = ++this.#nextId;
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    this.#onStart.set(id, () => (timer = setTimeout(() => deadline.abort(), o.timeoutMs)));
    try {
      return (await this.piscina.run(
        { ...task, id },
        {
          name,
          transferList: o.transferList ?? [],
          signal: o.signal ? AbortSignal.any([o.signal, deadline.signal]) : deadline.signal,
        },
      )) as T;
    } catch (err) {
      if (deadline.signal.aborted && !o.signal?.aborted)
        throw new TaskDeadlineError(`took longer than ${o.timeoutMs} ms`);
      throw err;
    } finally {
      clearTimeout(timer);
      this.#onStart.delete(id);
    }
  }
}

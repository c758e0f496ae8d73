import { FairLane } from '../fair/index.ts';
import { DeadlinePool, TaskDeadlineError } from '../workers/index.ts';
import type { ConvertInput, ConvertOutput, ListingInput } from './convert/index.ts';
import {
  convertHtml,
  extractListing,
  type ListingItem,
  type SelectedValue,
  type Selectors,
  selectFields,
  selectTags,
  type TagSelection,
} from './convert/index.ts';
import {
  convertPdf,
  OcrLane,
  type OcrLimits,
  type PdfConversion,
  type PdfConvertOptions,
  readPdfText,
} from './pdf/index.ts';

/** A task on a content worker outlived the per-task deadline; the worker was ended with it. */
export class ContentDeadlineError extends Error {}

/** Whose task this is (the user id), and the request's signal. */
export interface ContentRun {
  key: string;
  signal?: AbortSignal;
}

/**
 * Runs HTML conversion off the event loop. Parsing and converting a large page takes tens of
 * milliseconds of pure CPU; on the main thread that would stall every other request.
 * With zero workers (tests of the pipeline itself, tiny deployments) it converts inline.
 */
export class ContentThreads {
  readonly #pool: DeadlinePool | undefined;
  /**
   * A place per thread, handed to keys in turn: piscina queues tasks in arrival order, so one
   * key's batch of pages held every other key's single page behind all of it. A key may use every
   * thread while no other key waits, and a waiting key gets the next free one.
   */
  readonly #lane: FairLane;
  readonly #convertTimeoutMs: number;
  readonly #ocr: OcrLane;

  /**
   * `convertTimeoutMs` bounds one page's conversion: past it the worker is terminated (piscina
   * ends the thread of an aborted task and starts a fresh one), so no page, whatever its shape,
   * holds a worker that other users' pages wait for.
   */
  /**
   * `worker` is the module whose exports are the tasks (`./worker.ts` and its tasks by default):
   * a room above content gives one that adds its own tasks to these, so they share the threads.
   */
  constructor(
    workers: number,
    convertTimeoutMs: number,
    ocr: OcrLimits,
    worker = new URL('./worker.ts', import.meta.url),
  ) {
    this.#convertTimeoutMs = convertTimeoutMs;
    this.#lane = new FairLane({ capacity: Math.max(1, workers), perKey: Math.max(1, workers) });
    this.#ocr = new OcrLane(ocr);
    this.#pool =
      workers > 0
        ? new DeadlinePool({
            filename: worker.href,
            // Every thread up from the start: a burst (a batch) should not wait for threads to boot.
            minThreads: workers,
            maxThreads: workers,
            idleTimeout: 60_000,
            // An idle worker waits on its event loop, not blocked in Atomics.wait (piscina's
            // default): with workers blocked between pages the process spent about 40% more CPU
            // a page, on V8's background GC threads (the conversion itself cost the same).
            atomics: 'disabled',
          })
        : undefined;
  }

  convert(input: ConvertInput, run: ContentRun): Promise<ConvertOutput> {
    if (!this.#pool) return Promise.resolve(convertHtml(input));
    return this.runTask<ConvertOutput>('convert', { input }, [], run, 'converting the page');
  }

  /** The page's repeated cards (the `listing` format), parsed on a worker under the same deadline. */
  listing(input: ListingInput, run: ContentRun): Promise<ListingItem[]> {
    if (!this.#pool) return Promise.resolve(extractListing(input.html, input.url));
    return this.runTask<ListingItem[]>('listing', { input }, [], run, 'reading the listing');
  }

  /**
   * The page narrowed by the caller's `includeTags`/`excludeTags`. Selectors are the caller's
   * program: one such as `div:nth-child(2n+1):nth-last-child(2n+1) ~ div ~ div` takes minutes on
   * a page of many elements, so it runs on a worker under the deadline, never on the main thread.
   */
  selectTags(selection: TagSelection, run: ContentRun): Promise<string> {
    const { html, include = [], exclude = [] } = selection;
    if (include.length === 0 && exclude.length === 0) return Promise.resolve(html);
    if (!this.#pool) return Promise.resolve(selectTags(html, include, exclude));
    return this.runTask<string>(
      'selectTags',
      { selection: { html, include, exclude } },
      [],
      run,
      'narrowing the page to includeTags/excludeTags',
    );
  }

  /** Whether tasks run on worker threads; without any, a caller runs its task inline. */
  get threaded(): boolean {
    return this.#pool !== undefined;
  }

  /**
   * A task of the worker module on a page under the per-task deadline (counted from when a worker
   * takes it), in `run.key`'s turn; `what` names the work in the deadline's error. Only for a
   * threaded pool.
   */
  async runTask<T>(
    name: string,
    task: object,
    transferList: ArrayBuffer[],
    run: ContentRun,
    what: string,
  ): Promise<T> {
    const { signal } = run;
    try {
      return await this.#lane.run(
        run.key,
        () =>
          this.#pool!.run<T>(name, task, {
            timeoutMs: this.#convertTimeoutMs,
            signal,
            transferList,
          }),
        { signal },
      );
    } catch (err) {
      if (err instanceof TaskDeadlineError)
        throw new ContentDeadlineError(`${what} took longer than ${this.#convertTimeoutMs} ms`);
      throw err;
    }
  }

  /**
   * A PDF's text: its text layer read on a worker, its OCR in the OCR lane (child processes,
   * bounded apart), so recognising pages never holds a worker that HTML pages wait for.
   */
  pdf(bytes: Uint8Array, options: PdfConvertOptions): Promise<PdfConversion> {
    const { key, signal } = options;
    const pool = this.#pool;
    const text = pool
      ? (data: Uint8Array, maxPages: number) =>
          this.#lane.run(
            key,
            () =>
              pool.piscina.run(
                { bytes: data, maxPages },
                { name: 'pdfText', signal: signal ?? null },
              ),
            { signal },
          )
      : readPdfText;
    return convertPdf(bytes, options, { text, ocr: this.#ocr });
  }

  /** Selector extraction, under the same deadline as a conversion and for the same reason as selectTags. */
  select(
    input: { html: string; url: string; selectors: Selectors },
    run: ContentRun,
  ): Promise<Record<string, SelectedValue>> {
    if (!this.#pool) return Promise.resolve(selectFields(input.html, input.url, input.selectors));
    return this.runTask<Record<string, SelectedValue>>(
      'select',
      { input },
      [],
      run,
      'reading extract.selectors',
    );
  }

  /** Threads, how many are converting, and conversions waiting for one (for /metrics). */
  stats(): { threads: number; busy: number; queued: number } {
    if (!this.#pool) return { threads: 0, busy: 0, queued: 0 };
    const { threads, idleThreads, queueSize } = this.#pool.piscina;
    return {
      threads: threads.length,
      busy: threads.length - idleThreads,
      queued: queueSize + this.#lane.waiting,
    };
  }

  async close(): Promise<void> {
    await this.#pool?.piscina.destroy();
  }
}

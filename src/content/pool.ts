import { Piscina } from 'piscina';
import { convertHtml } from './convert.ts';
import { convertPdf, type PdfConversion, type PdfConvertOptions } from './pdf.ts';
import { selectFields, type SelectedValue, type Selectors } from './select.ts';
import type { ConvertInput, ConvertOutput } from './types.ts';

/**
 * Runs HTML conversion off the event loop. Parsing and converting a large page takes tens of
 * milliseconds of pure CPU; on the main thread that would stall every other request.
 * With zero workers (tests of the pipeline itself, tiny deployments) it converts inline.
 */
export class ContentPool {
  readonly #pool: Piscina | undefined;

  constructor(workers: number) {
    this.#pool =
      workers > 0
        ? new Piscina({
            filename: new URL('./worker.ts', import.meta.url).href,
            // Every thread up from the start: a burst (a batch) should not wait for threads to boot.
            minThreads: workers,
            maxThreads: workers,
            idleTimeout: 60_000,
          })
        : undefined;
  }

  convert(input: ConvertInput, signal?: AbortSignal): Promise<ConvertOutput> {
    if (!this.#pool) return Promise.resolve(convertHtml(input));
    return this.#pool.run(input, { signal: signal ?? null });
  }

  pdf(bytes: Uint8Array, options: PdfConvertOptions): Promise<PdfConversion> {
    if (!this.#pool) return convertPdf(bytes, options);
    const { signal, ...rest } = options;
    return this.#pool.run({ bytes, options: rest }, { name: 'pdf', signal: signal ?? null });
  }

  select(input: { html: string; url: string; selectors: Selectors }, signal?: AbortSignal): Promise<Record<string, SelectedValue>> {
    if (!this.#pool) return Promise.resolve(selectFields(input.html, input.url, input.selectors));
    return this.#pool.run(input, { name: 'select', signal: signal ?? null });
  }

  /** Threads, how many are converting, and conversions waiting for one (for /metrics). */
  stats(): { threads: number; busy: number; queued: number } {
    if (!this.#pool) return { threads: 0, busy: 0, queued: 0 };
    const threads = this.#pool.threads.length;
    return { threads, busy: threads - this.#pool.idleThreads, queued: this.#pool.queueSize };
  }

  async close(): Promise<void> {
    await this.#pool?.destroy();
  }
}

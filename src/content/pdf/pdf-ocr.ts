import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One page to read, with the resolution to render it at. Page numbers are 1-based. */
export interface OcrPage {
  n: number;
  dpi: number;
}

export interface OcrOptions {
  language?: string;
  /** Deadline of rendering or recognising one page. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Waits for each page's turn (the OCR lane's); the function it gives hands the turn back. */
  turn(): Promise<() => void>;
}

export interface OcrResult {
  texts: Map<number, string>;
  /** Pages whose reading was started: the work done, whatever it found. */
  attempted: number;
}

/**
 * Reads pages of a PDF by rendering them (poppler's pdftoppm) and recognising the text
 * (tesseract), both from Debian's packages. When `signal` aborts, the page under way is killed
 * and the pages read so far are returned with the count of pages started; the caller tells a
 * budget running out from its client leaving.
 */
export async function ocrPdfPages(
  bytes: Uint8Array,
  pages: OcrPage[],
  opts: OcrOptions,
): Promise<OcrResult> {
  const dir = await mkdtemp(join(tmpdir(), 'webdata-ocr-'));
  const texts = new Map<number, string>();
  let attempted = 0;
  const common = { timeout: opts.timeoutMs, signal: opts.signal, maxBuffer: 16 * 1024 * 1024 };
  try {
    const pdf = join(dir, 'in.pdf');
    await writeFile(pdf, bytes);
    for (const { n, dpi } of pages) {
      if (opts.signal?.aborted) break;
      let release: () => void;
      try {
        release = await opts.turn();
      } catch (err) {
        if (opts.signal?.aborted) break;
        throw err;
      }
      attempted++;
      try {
        await run(
          'pdftoppm',
          [
            '-r',
            String(dpi),
            '-gray',
            '-png',
            '-f',
            String(n),
            '-l',
            String(n),
            pdf,
            join(dir, `p${n}`),
          ],
          common,
        );
        const image = (await readdir(dir)).find(
          (f) => f.startsWith(`p${n}-`) && f.endsWith('.png'),
        );
        if (!image) continue;
        const { stdout } = await run(
          'tesseract',
          [join(dir, image), 'stdout', '-l', opts.language ?? 'eng', '--psm', '3'],
          common,
        );
        texts.set(
          n,
          stdout
            .replace(/\f/g, '')
            .replace(/\n{3,}/g, '\n\n')
            .trim(),
        );
      } catch (err) {
        if (opts.signal?.aborted) break;
        throw err;
      } finally {
        release();
      }
    }
    return { texts, attempted };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

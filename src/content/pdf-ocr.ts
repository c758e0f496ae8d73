import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface OcrOptions {
  /** Rendering resolution; 200 dpi reads body text well at a fraction of 300's time. */
  dpi?: number;
  language?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Reads pages of a PDF by rendering them (poppler's pdftoppm) and recognising the text
 * (tesseract), both from Debian's packages. Page numbers are 1-based.
 */
export async function ocrPdfPages(bytes: Uint8Array, pageNumbers: number[], opts: OcrOptions): Promise<Map<number, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'webdata-ocr-'));
  const out = new Map<number, string>();
  const common = { timeout: opts.timeoutMs, signal: opts.signal, maxBuffer: 16 * 1024 * 1024 };
  try {
    const pdf = join(dir, 'in.pdf');
    await writeFile(pdf, bytes);
    for (const n of pageNumbers) {
      await run('pdftoppm', ['-r', String(opts.dpi ?? 200), '-gray', '-png', '-f', String(n), '-l', String(n), pdf, join(dir, `p${n}`)], common);
      const image = (await readdir(dir)).find((f) => f.startsWith(`p${n}-`) && f.endsWith('.png'));
      if (!image) continue;
      const { stdout } = await run('tesseract', [join(dir, image), 'stdout', '-l', opts.language ?? 'eng', '--psm', '3'], common);
      out.set(n, stdout.replace(/\f/g, '').replace(/\n{3,}/g, '\n\n').trim());
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

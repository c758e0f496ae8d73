import { afterAll, describe, expect, it } from 'vitest';
import type { ContentThreads } from '../../src/content/index.ts';
import { pageContentThreads, readHttpAnswerOn } from '../../src/page/http-answer.ts';

const ocr = { concurrency: 1, pageTimeoutMs: 10_000, budgetMs: 10_000, maxPixels: 1_000_000 };
const paragraph =
  '<p>A paragraph of ordinary prose, long enough to count as the main content, with commas, clauses.</p>';

describe('reading an HTTP answer on a conversion worker', () => {
  const pool = pageContentThreads(1, 30_000, ocr);
  const inline = pageContentThreads(0, 30_000, ocr);
  const tight = pageContentThreads(1, 150, ocr);
  afterAll(() => Promise.all([pool.close(), inline.close(), tight.close()]));
  /** An HTML answer from `url` with `statusCode`, read on `on`. */
  const read = (bytes: Buffer, url: string, statusCode: number, on: ContentThreads = pool) =>
    readHttpAnswerOn(on, { bytes, contentType: 'text/html', url, statusCode }, { key: 'test' });

  it('decodes the bytes by their declared charset and converts the main content, leaving the caller its bytes', async () => {
    const html = `<html><head><meta charset="windows-1252"><title>Caf\u00e9</title></head><body><article><h1>Caf\u00e9 cr\u00e8me</h1>${paragraph.repeat(5)}</article></body></html>`;
    const bytes = Buffer.from(html, 'latin1');
    const copy = Buffer.from(bytes);
    for (const p of [pool, inline]) {
      const reading = await read(bytes, 'https://cafe.example/a', 200, p);
      expect(reading.escalate).toBeUndefined();
      expect(reading.main?.content).toContain('Caf\u00e9 cr\u00e8me');
      expect(reading.main?.metadata.title).toBe('Caf\u00e9');
      // The worker got a transferred copy: the caller's Buffer is neither detached nor changed.
      expect(bytes.equals(copy)).toBe(true);
    }
    // The first reading waits for the worker threads to boot, which on a loaded machine is slow.
  }, 60_000);

  it('names a challenge page and a page that needs JavaScript, without converting them', async () => {
    const challenge = Buffer.from(
      '<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>',
    );
    const blocked = await read(challenge, 'https://wall.example/', 403);
    expect(blocked.block?.kind).toBe('challenge');
    expect(blocked.escalate).toBe(blocked.block?.reason);
    expect(blocked.main).toBeUndefined();
    const app = Buffer.from(
      '<html><body><div id="root"></div><script src="/app.js"></script></body></html>',
    );
    const shell = await read(app, 'https://app.example/', 200);
    expect(shell.escalate).toMatch(/app root/);
    expect(shell.main).toBeUndefined();
  });

  it('keeps an error page as it is, and ends a reading past the conversion deadline', async () => {
    const missing = await read(
      Buffer.from(`<html><body>${paragraph}</body></html>`),
      'https://gone.example/',
      404,
    );
    expect(missing).toEqual({});
    const huge = Buffer.from(
      `<html><body><article>${paragraph.repeat(40_000)}</article></body></html>`,
    );
    await expect(read(huge, 'https://big.example/', 200, tight)).rejects.toThrow(
      /took longer than 150 ms/,
    );
  });
});

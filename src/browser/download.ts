import type { Page } from 'playwright-core';
import { FetchFailure } from '../acquire/index.ts';
import { NavigationError } from './errors.ts';

/** What a navigation that became a download brought: the file, read. */
export interface DownloadedFile {
  url: string;
  /** The name the server or the URL suggests for it. */
  filename: string;
  body: Buffer;
}

/**
 * Reads the file a navigation turned into, once Chromium has it (the download event comes after
 * the navigation gave up), by `deadline`, at most `maxBytes`. The egress lane already bounds what
 * the page may bring in; the limit here keeps a lane's whole allowance out of this heap.
 */
export async function readDownload(
  page: Page,
  deadline: number,
  maxBytes: number,
): Promise<DownloadedFile> {
  const timeoutMs = Math.max(1, deadline - Date.now());
  const timedOut = () =>
    new NavigationError(`the download did not end within ${timeoutMs} ms`, true);
  const download = await page
    .waitForEvent('download', { timeout: timeoutMs })
    .catch((err: unknown) => {
      throw err instanceof Error && err.name === 'TimeoutError' ? timedOut() : err;
    });
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), Math.max(1, deadline - Date.now()));
  });
  try {
    const read = async () => {
      // Resolves once the download ended, with why it failed (cut by the lane, refused, aborted).
      const failure = await download.failure();
      if (failure)
        throw new NavigationError(`the download of ${download.url()} failed: ${failure}`);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of await download.createReadStream()) {
        size += (chunk as Buffer).length;
        if (size > maxBytes)
          throw new FetchFailure(
            'too-large',
            `the download exceeds the limit of ${maxBytes} bytes`,
          );
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    };
    const body = await Promise.race([read(), expiry]);
    return { url: download.url(), filename: download.suggestedFilename(), body };
  } finally {
    clearTimeout(timer);
  }
}

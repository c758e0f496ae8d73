import { readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { processTree } from '../../src/browser/index.ts';

/** Browser and Xvfb processes below this test process (what a closed server must not leave). */
export function leftoverBrowserProcesses(): string[] {
  return processTree(process.pid)
    .filter((pid) => pid !== process.pid)
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
      } catch {
        return '';
      }
    })
    .filter((cmd) => /chrom|Xvfb/i.test(cmd));
}

/**
 * Checks, after the file's tests, that no browser outlived its servers. Call it before them:
 * vitest runs afterAll hooks last-registered first, so it then runs once they all closed.
 */
export function expectNoBrowsersLeft(): void {
  afterAll(() => {
    expect(leftoverBrowserProcesses()).toEqual([]);
  });
}

/**
 * The browser pool's bounds as settings: how many browsers, pages across them, pages one key may
 * hold (the service's default share unless said), and how long a request waits for a page.
 */
export function browserCapacity(c: {
  browsers: number;
  pages: number;
  perKey?: number;
  queueWaitMs: number;
}): Record<string, string> {
  return {
    WEBDATA_BROWSER_POOL_SIZE: String(c.browsers),
    WEBDATA_BROWSER_MAX_PAGES: String(c.pages),
    WEBDATA_BROWSER_QUEUE_WAIT_MS: String(c.queueWaitMs),
    ...(c.perKey === undefined ? {} : { WEBDATA_BROWSER_PAGES_PER_KEY: String(c.perKey) }),
  };
}

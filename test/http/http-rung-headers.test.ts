import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startHeaderRecordingSite } from '../fixtures/header-recording-site.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

const site = useFixture(() => startHeaderRecordingSite());
const t = useServer();

/** The headers Debian's Chromium sends opening `url` from the address bar, captured now. */
async function chromiumHeaders(path: string): Promise<Array<[string, string]>> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${site.origin}${path}`);
  } finally {
    await browser.close();
  }
  return site.seen.get(path)!;
}

/** "A";v="1", "B";v="2" as a set of brand=version. */
const brands = (value: string) =>
  new Set([...value.matchAll(/"([^"]+)";v="([^"]+)"/g)].map((m) => `${m[1]}=${m[2]}`));

describe('the HTTP rung introduces itself as Chrome does', () => {
  it("sends a real Chrome's navigation headers, in its order and spelling, with Chrome's brand", async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/rung`,
      method: 'http',
    });
    expect(json).toMatchObject({ success: true, method: 'http' });
    const ours = site.seen.get('/rung')!;
    const theirs = await chromiumHeaders('/chromium');
    // The HTTP client writes Host and Connection itself, in lower case (see docs/rendering.md).
    const spelled = (pairs: Array<[string, string]>) =>
      pairs.map(([name], i) => (i < 2 ? name.toLowerCase() : name));
    expect(spelled(ours)).toEqual(spelled(theirs));
    const value = (pairs: Array<[string, string]>, name: string) =>
      pairs.find(([n]) => n.toLowerCase() === name)![1];
    for (const [name] of theirs.slice(2)) {
      const key = name.toLowerCase();
      if (key === 'user-agent')
        // Chromium run headless says so in its user agent; the Chrome we claim to be is not headless.
        expect(value(ours, key)).toBe(value(theirs, key).replace('HeadlessChrome/', 'Chrome/'));
      else if (key === 'sec-ch-ua') {
        const ourBrands = brands(value(ours, key));
        const version = value(ours, 'user-agent').match(/Chrome\/(\d+)/)![1];
        expect(ourBrands).toEqual(
          new Set([...brands(value(theirs, key)), `Google Chrome=${version}`]),
        );
      } else expect(value(ours, key), name).toBe(value(theirs, key));
    }
  });
});

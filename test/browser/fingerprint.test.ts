import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { desktopChrome } from '../../src/browser/fingerprint.ts';
import { loadConfig } from '../../src/config.ts';

it("brands the pages as Chrome does: the browser's own GREASE brand and order, Google Chrome in its place", async () => {
  // userAgentData exists only in a secure context; loopback is one.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>brands</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: loadConfig({}).chromium.headless,
    args: ['--no-sandbox'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const own = await page.evaluate(() =>
      (
        navigator as unknown as {
          userAgentData: { getHighEntropyValues(h: string[]): Promise<Record<string, unknown>> };
        }
      ).userAgentData.getHighEntropyValues(['fullVersionList']),
    );
    const asChrome = (list: unknown) =>
      (list as Array<{ brand: string; version: string }>).map((b) =>
        b.brand === 'HeadlessChrome' ? { ...b, brand: 'Google Chrome' } : b,
      );
    const fingerprint = desktopChrome(browser.version());
    expect(fingerprint.metadata.brands).toEqual(asChrome(own.brands));
    expect(fingerprint.metadata.fullVersionList).toEqual(asChrome(own.fullVersionList));
    expect(fingerprint.metadata.platform).toBe(own.platform);
  } finally {
    await browser.close();
    server.close();
  }
});

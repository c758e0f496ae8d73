import { expect } from 'vitest';
import { timed } from './poll.ts';
import { TEST_KEY_2, type TestServer } from './server.ts';

/** A first scrape of `smallUrl`, so the timed one meets warm workers rather than booting ones. */
export async function warmUp(t: TestServer, smallUrl: string): Promise<void> {
  const { json } = await t.api('POST', '/api/v1/scrape/single', { url: smallUrl }, TEST_KEY_2);
  expect(json.success).toBe(true);
}

/**
 * While another request works, the service still answers others: `/health` within a second,
 * and a second key's scrape of `smallUrl` within `scrapeWithinMs` (1 s unless a test's work
 * legitimately holds the content workers up to a deadline it set).
 */
export async function expectResponsive(
  t: TestServer,
  smallUrl: string,
  scrapeWithinMs = 1000,
): Promise<void> {
  const health = await timed(t.api('GET', '/health', undefined, null));
  expect(health.value.status).toBe(200);
  expect(health.ms, '/health while the heavy request runs').toBeLessThan(1000);
  const scrape = await timed(t.api('POST', '/api/v1/scrape/single', { url: smallUrl }, TEST_KEY_2));
  expect(scrape.value.json.success).toBe(true);
  expect(scrape.value.json.markdown).toContain('A short page anyone may ask for.');
  expect(scrape.ms, "another key's scrape while the heavy request runs").toBeLessThan(
    scrapeWithinMs,
  );
}

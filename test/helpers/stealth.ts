import { expect } from 'vitest';
import { verdictIn } from '../fixtures/site/routes/bot-detectors.ts';
import type { TestServer } from './server.ts';

export type ChromiumRung = 'browser' | 'browser-stealth';
export const CHROMIUM_RUNGS: ChromiumRung[] = ['browser', 'browser-stealth'];

/** Scrapes `body` for its raw HTML, asserting the scrape succeeded on the method it asked for. */
export async function scrapeRawHtml(t: TestServer, body: Record<string, unknown>): Promise<string> {
  const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
    formats: ['rawHtml'],
    ...body,
  });
  expect(status).toBe(200);
  expect(json.success, json.error).toBe(true);
  if (body.method) expect(json.method).toBe(body.method);
  return json.rawHtml as string;
}

/** A bot detector's page once its checks ran: a final verdict that caught nothing. */
export function expectNothingCaught(html: string): void {
  const verdict = verdictIn(html);
  expect(verdict?.final).toBe(true);
  expect(verdict?.caught).toEqual([]);
  expect(verdict?.pass).toBe(true);
}

import { createHmac } from 'node:crypto';
import { sendHtml } from '../fixtures/site/respond.ts';
import type { FixtureHandler } from '../fixtures/site/server.ts';
import { waitFor } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';

/** Settings that let tests check every 2 s and see a check end within a tenth of a second. */
export const FAST_MONITORS = {
  WEBDATA_MONITOR_MIN_INTERVAL_SECONDS: '2',
  WEBDATA_MONITOR_POLL_MS: '100',
  WEBDATA_MONITOR_MAX_URLS: '5',
};

/** A notice page the test edits between checks, with a clock and a view counter that change on every visit. */
export function noticePage() {
  const state = {
    paragraphs: [
      'The library opens at nine on weekdays and at ten on Saturdays.',
      'Members may borrow up to six books for three weeks at a time.',
      'The reading room closes for repairs during the first week of March.',
    ],
    visits: 0,
  };
  const handler: FixtureHandler = (_req, res) => {
    state.visits++;
    sendHtml(
      res,
      `<!doctype html><html><head><title>Library notices</title></head><body><main><article><h1>Notices</h1><p>Updated 10:${String(state.visits % 60).padStart(2, '0')} · ${1000 + state.visits * 7} views</p>${state.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article></main></body></html>`,
    );
  };
  return { state, handler };
}

/** The documented check: hex HMAC-SHA256 of `${timestamp}.${raw body}` with the secret, prefixed v1=. */
export function verifies(
  secret: string,
  d: { headers: Record<string, unknown>; body: string },
): boolean {
  const timestamp = String(d.headers['webdata-timestamp']);
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${d.body}`).digest('hex')}`;
  return d.headers['webdata-signature'] === expected;
}

/** Waits until the monitor has ended at least `n` checks; answers its checks, newest first. */
export async function checksAtLeast(
  t: Pick<TestServer, 'api'>,
  id: string,
  n: number,
  timeoutMs = 30_000,
): Promise<any[]> {
  let last: unknown;
  return waitFor(
    async () => {
      const { json } = await t.api('GET', `/api/v1/monitors/${id}/checks?limit=100`);
      last = json;
      const ended = (json.checks as any[]).filter((c) => c.status !== 'running');
      return ended.length >= n && ended;
    },
    { timeoutMs, everyMs: 100, what: () => `${n} checks: ${JSON.stringify(last).slice(0, 800)}` },
  );
}

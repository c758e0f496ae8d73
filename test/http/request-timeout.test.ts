import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, useServer } from '../helpers/server.ts';

const t = useServer({
  settings: { WEBDATA_REQUEST_TIMEOUT_MS: '1000', WEBDATA_MAX_INFLIGHT_PER_USER: '1' },
});

/** Sends the headers and the first bytes of a body it promises to be longer, then goes quiet. */
function slowBody(): Promise<{ response: string; closedAfterMs: number }> {
  const { port } = new URL(t.base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST /api/v1/scrape/single HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${TEST_KEY}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"url":`,
      );
    });
    let response = '';
    socket.on('data', (chunk) => (response += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ response, closedAfterMs: performance.now() - started }));
  });
}

describe('request body time-out', () => {
  it('cuts a slow body with 408 in the API error shape, and the body holds an in-flight place until then', async () => {
    const slow = slowBody();
    await new Promise((r) => setTimeout(r, 200));
    const meanwhile = await t.api('POST', '/api/v1/scrape/single', { url: 'not a url' });
    expect(meanwhile.status).toBe(429);
    expect(meanwhile.headers.get('retry-after')).toBeTruthy();

    const { response, closedAfterMs } = await slow;
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ success: false, error: 'the request was not received within 1000 ms' });
    // Checked every quarter of the limit; generous margin for a loaded machine.
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(10_000);

    // The place is handed back: the next request is judged on its own merits.
    const after = await t.api('POST', '/api/v1/scrape/single', { url: 'not a url' });
    expect(after.status).toBe(400);
  });
});

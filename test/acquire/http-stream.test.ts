import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchFailure, HttpEngine } from '../../src/acquire/index.ts';
import {
  FIRST_HALF,
  SECOND_HALF,
  type StreamingSite,
  startStreamingSite,
} from '../fixtures/streaming-site.ts';

let site: StreamingSite;
let http: HttpEngine;

beforeAll(async () => {
  site = await startStreamingSite();
  http = new HttpEngine({
    policy: { allowPrivate: true },
    timeoutMs: 5000,
    maxBytes: 1024 * 1024,
    maxRedirects: 3,
  });
});
afterAll(async () => {
  await http?.close();
  await site?.close();
});

/** Reads a body to its end, answering what arrived and the error that ended it, if one did. */
async function drain(body: AsyncIterable<unknown>): Promise<{ bytes: number; error?: unknown }> {
  let bytes = 0;
  try {
    for await (const chunk of body) bytes += (chunk as Buffer).length;
    return { bytes };
  } catch (error) {
    return { bytes, error };
  }
}

describe('HttpEngine.stream', () => {
  it('hands over the decoded body as it arrives, before the server has finished', async () => {
    const res = await http.stream(`${site.origin}/held`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const reader = res.body[Symbol.asyncIterator]();
    const first = await reader.next();
    // The server is still holding the rest back: this came off the wire, inflated, mid-response.
    expect(String(first.value)).toBe(FIRST_HALF);
    site.release();
    let rest = '';
    for (let next = await reader.next(); !next.done; next = await reader.next())
      rest += String(next.value);
    expect(rest).toBe(SECOND_HALF);
  });

  it('fails mid-stream once the body passes the byte limit, and drops the connection', async () => {
    const res = await http.stream(`${site.origin}/endless`, { maxBytes: 200_000 });
    expect(res.statusCode).toBe(200);
    const { bytes, error } = await drain(res.body);
    expect(error).toBeInstanceOf(FetchFailure);
    expect((error as FetchFailure).kind).toBe('too-large');
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(200_000);
    await site.closed('/endless');
    // The server was stopped long before the 64 MB it would have sent.
    expect(site.sent.get('/endless')!).toBeLessThan(16 * 1024 * 1024);
  });

  it('counts the limit in decoded bytes, so a compression bomb stops at it', async () => {
    const res = await http.stream(`${site.origin}/bomb`, { maxBytes: 1024 * 1024 });
    const { bytes, error } = await drain(res.body);
    expect((error as FetchFailure).kind).toBe('too-large');
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
  });

  it('checks every redirect hop against the SSRF guard and reports the chain', async () => {
    const ok = await http.stream(`${site.origin}/redirect?to=${encodeURIComponent('/plain')}`);
    expect(ok.url).toBe(`${site.origin}/plain`);
    expect(ok.chain).toEqual([`${site.origin}/redirect?to=%2Fplain`, `${site.origin}/plain`]);
    expect(String((await ok.body.toArray()).join(''))).toBe('plain body');

    const toMetadata = http.stream(
      `${site.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
    );
    await expect(toMetadata).rejects.toMatchObject({
      kind: 'blocked-destination',
      message: expect.stringMatching(/169\.254\.169\.254 is a link-local address/),
    });
    const toFile = http.stream(
      `${site.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`,
    );
    await expect(toFile).rejects.toMatchObject({ kind: 'blocked-destination' });
    await expect(http.stream(`${site.origin}/loop`)).rejects.toMatchObject({
      kind: 'too-many-redirects',
    });
  });

  it('keeps the deadline running while the body is read', async () => {
    const started = Date.now();
    const res = await http.stream(`${site.origin}/stall`, { timeoutMs: 400 });
    expect(res.statusCode).toBe(200);
    const { bytes, error } = await drain(res.body);
    expect(bytes).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(FetchFailure);
    expect((error as FetchFailure).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('closes the connection when the reader stops early', async () => {
    const res = await http.stream(`${site.origin}/endless`);
    const reader = res.body[Symbol.asyncIterator]();
    await reader.next();
    res.body.destroy();
    await site.closed('/endless');
  });

  it('underlies fetch, which reads the same body whole', async () => {
    const res = await http.fetch(`${site.origin}/redirect?to=${encodeURIComponent('/plain')}`);
    expect(res.body.toString()).toBe('plain body');
    await expect(http.fetch(`${site.origin}/bomb`, { maxBytes: 1024 })).rejects.toMatchObject({
      kind: 'too-large',
    });
  });
});

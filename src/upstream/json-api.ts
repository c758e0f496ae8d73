import { request } from 'undici';
import { UpstreamError } from './errors.ts';

export interface JsonRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** An API key, sent as `authorization: Bearer`; none is sent when absent. */
  bearer?: string;
  body?: unknown;
  signal: AbortSignal;
}

/** Largest API answer read; search and LLM answers are kilobytes, so this only stops a runaway server. */
const MAX_BODY_CHARS = 8 * 1024 * 1024;

function apiMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as {
      error?: { message?: string } | string;
      message?: string;
      detail?: unknown;
    };
    const err = parsed.error;
    const message =
      typeof err === 'string'
        ? err
        : (err?.message ??
          parsed.message ??
          (typeof parsed.detail === 'string' ? parsed.detail : undefined));
    if (message) return message.slice(0, 300);
  } catch {
    // Not JSON: the raw text below says what there is to say.
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/**
 * Calls a JSON API (a search engine, the LLM). These endpoints are the operator's own
 * configuration (often a SearXNG or an Ollama on the same host), not addresses a user supplied, so
 * they are reached directly rather than through the SSRF guard that protects page fetches.
 * Throws UpstreamError naming `service`; rethrows when `req.signal` is aborted.
 */
export async function requestJson(
  service: string,
  url: string,
  req: JsonRequest,
): Promise<unknown> {
  let res;
  try {
    res = await request(url, {
      method: req.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...req.headers,
        ...(req.bearer ? { authorization: `Bearer ${req.bearer}` } : {}),
      },
      body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      signal: req.signal,
    });
  } catch (err) {
    if (req.signal.aborted) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UpstreamError(
      'failed',
      service,
      code === 'ECONNREFUSED' ? 'connection refused' : (err as Error).message,
    );
  }
  const text = await res.body.text();
  if (text.length > MAX_BODY_CHARS)
    throw new UpstreamError('failed', service, 'the answer is larger than any answer should be');
  if (res.statusCode === 429)
    throw new UpstreamError('refused', service, `rate limited (HTTP 429): ${apiMessage(text)}`);
  // The provider's own text for a rejected key can quote part of the key, so it is not passed on.
  if (res.statusCode === 401 || res.statusCode === 403)
    throw new UpstreamError(
      'failed',
      service,
      `the API key was rejected (HTTP ${res.statusCode}); check the server's configuration`,
    );
  if (res.statusCode >= 400)
    throw new UpstreamError('failed', service, `HTTP ${res.statusCode}: ${apiMessage(text)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError('failed', service, 'the answer is not JSON');
  }
}

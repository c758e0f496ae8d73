import { decodeBody, type HttpEngine } from '../acquire/index.ts';
import type { FetchPage } from './types.ts';

/** The default SERP fetcher: plain HTTP through the acquisition layer, SSRF guard included. */
export function httpSerpFetcher(http: HttpEngine): FetchPage {
  return async (url, signal) => {
    const res = await http.fetch(url, { signal });
    const { text } = decodeBody(res.body, res.headers['content-type'], true);
    return { url: res.url, statusCode: res.statusCode, html: text };
  };
}

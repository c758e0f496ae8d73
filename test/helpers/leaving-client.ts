import { TEST_KEY } from './server.ts';

/**
 * A scrape whose client can walk away mid-request, as a closed tab or a killed script does:
 * `leave()` aborts it; `answer` settles to the response, or to the abort's error once it left.
 */
export function leavingScrape(server: { base: string }, body: Record<string, unknown>) {
  const client = new AbortController();
  const answer = fetch(`${server.base}/api/v1/scrape/single`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: client.signal,
  }).catch((err: Error) => err);
  return { answer, leave: () => client.abort() };
}

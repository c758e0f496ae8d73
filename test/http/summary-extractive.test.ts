import { describe, expect, it } from 'vitest';
import { promptBreakerPage } from '../fixtures/prompt-breaker.ts';
import { formThenSecond } from '../fixtures/site/routes/browser.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, useServer } from '../helpers/server.ts';
import { runJob } from '../jobs/helpers.ts';

const EXTRACTIVE_CHARS = 400;

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite({ '/tricky-page': promptBreakerPage }));
const noLlm = useServer({
  settings: {
    WEBDATA_SUMMARY_EXTRACTIVE_CHARS: String(EXTRACTIVE_CHARS),
    WEBDATA_BROWSER_POOL_SIZE: '1',
  },
});

describe('summary without an LLM configured: extractive', () => {
  const QUERY = 'How should visitors treat the rock and the stones?';
  /** The sentences of the article holding the query's terms, in page order. */
  const CHOSEN = [
    'Twice a day the ocean pulls back and leaves behind a scattering of rock basins that hold seawater, anemones, hermit crabs and the occasional stranded sculpin.',
    'Visitors should step only on bare rock, turn stones back the way they found them, and leave every creature in the pool where it lives.',
  ];

  async function noLlmRows(call: () => Promise<unknown>) {
    const user = (await noLlm.server.keys.authenticate(TEST_KEY))!;
    const before = (await noLlm.server.ledger.forUser(user.userId)).length;
    await call();
    return (await noLlm.server.ledger.forUser(user.userId))
      .slice(before)
      .map(({ operation, units, costMicros }) => ({ operation, units, costMicros }));
  }

  it('answers a single fetch with the most relevant passages, in page order, at the same price', async () => {
    let out: any;
    const rows = await noLlmRows(async () => {
      out = await noLlm.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/article.html`,
        summary: { query: QUERY },
      });
    });
    expect(out.status).toBe(200);
    expect(out.json).toMatchObject({ success: true, cost: 0.003, summarizer: 'extractive' });
    expect(out.json.content).toBe(CHOSEN.join('\n\n'));
    expect(rows.sort((a, b) => a.operation.localeCompare(b.operation))).toEqual([
      { operation: 'scrape', units: 1, costMicros: 2000 },
      { operation: 'summary', units: 1, costMicros: 1000 },
    ]);
  });

  it('keeps the passages within WEBDATA_SUMMARY_EXTRACTIVE_CHARS', async () => {
    const { json } = await noLlm.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/article.html`,
      summary: { query: `${QUERY} Anemones, zones, residents, tide, pools, trampling.` },
    });
    expect(json.summarizer).toBe('extractive');
    expect(json.content.length).toBeLessThanOrEqual(EXTRACTIVE_CHARS);
    expect(json.content.length).toBeGreaterThan(EXTRACTIVE_CHARS / 2);
  });

  it('summarises every batch item and sequence breakpoint extractively', async () => {
    const batch = await noLlm.api('POST', '/api/v1/scrape/batch', {
      urls: [`${site.origin}/article.html`, `${site.origin}/notes.txt`],
      summary: { query: QUERY },
    });
    expect(batch.json).toMatchObject({ successful: 2, cost: 0.006 });
    expect(batch.json.results[0]).toMatchObject({
      summarizer: 'extractive',
      content: CHOSEN.join('\n\n'),
    });
    // Nothing on the notes holds the query's terms: its opening stands in.
    expect(batch.json.results[1]).toMatchObject({
      summarizer: 'extractive',
      content: 'Plain text notes. Second line.',
    });

    const seq = await noLlm.api('POST', '/api/v1/scrape/sequence', {
      ...formThenSecond(site.origin),
      summary: { query: 'search the archive' },
    });
    expect(seq.json).toMatchObject({ success: true, completedBreakpoints: 2, cost: 0.006 });
    expect(
      seq.json.data.map((b: { content: string; summarizer: string }) => [b.summarizer, b.content]),
    ).toEqual([
      ['extractive', 'Type a word and press Enter to search the tide archive.'],
      ['extractive', 'Reached by a navigate step.'],
    ]);
  });

  it('summarises extractively in an async job', async () => {
    const job = await runJob(noLlm, '/api/v1/scrape/async/single', {
      url: `${site.origin}/article.html`,
      summary: { query: QUERY },
    });
    expect(job.status).toBe('completed');
    expect(job.data[0]).toMatchObject({
      success: true,
      cost: 0.003,
      summarizer: 'extractive',
      content: CHOSEN.join('\n\n'),
    });
  });

  it('refuses a blank instruction', async () => {
    const { status, json } = await noLlm.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/article.html`,
      summary: { query: '   ' },
    });
    expect(status).toBe(400);
    expect(json.error).toBe('summary.query: must not be blank');
  });
});

import { describe, expect, it } from 'vitest';
import { startOpenAiResponsesServer } from '../fixtures/openai-responses-server.ts';
import { sendHtml } from '../fixtures/site/respond.ts';
import type { FixtureHandler } from '../fixtures/site/server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { extractModelAt } from '../helpers/llm-extract.ts';
import { useServer } from '../helpers/server.ts';

/** What the fixture model fills from a page: its first heading, and every heading. */
const SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, sections: { type: 'array', items: { type: 'string' } } },
  required: ['title', 'sections'],
  additionalProperties: false,
};

/** A guide whose section headings the test edits between scrapes; its clock changes every visit. */
let sections = ['Getting there', 'Opening hours'];
let visits = 0;
const guide: FixtureHandler = (_req, res) => {
  visits++;
  sendHtml(
    res,
    `<!doctype html><html><head><title>Museum guide</title></head><body><main><article><h1>Museum guide</h1><p>Updated 09:${String(visits % 60).padStart(2, '0')}.</p>${sections.map((s) => `<h2>${s}</h2><p>What a visitor should know about ${s.toLowerCase()}, in a few plain sentences for the guide.</p>`).join('')}</article></main></body></html>`,
  );
};

const site = useFixture(() => startFixtureSite({ '/guide/*': guide }));
const model = useFixture(startOpenAiResponsesServer);

describe.each(['sqlite', 'postgres'] as const)('change tracking json mode on %s', (backend) => {
  const t = useServer({
    backend,
    settings: () => ({
      ...extractModelAt(model),
    }),
  });

  it('names the fields of the extraction that changed since the last scrape, and none when none did', async () => {
    sections = ['Getting there', 'Opening hours'];
    const url = `${site.origin}/guide/native-${backend}`;
    const track = () =>
      t.api('POST', '/api/v1/scrape/single', {
        url,
        formats: ['markdown', { type: 'changeTracking', modes: ['json', 'git-diff'] }],
        extract: { schema: SCHEMA },
      });
    const first = await track();
    expect(first.status).toBe(200);
    expect(first.json.json).toEqual({
      title: 'Museum guide',
      sections: ['Museum guide', 'Getting there', 'Opening hours'],
    });
    expect(first.json.changeTracking).toEqual({
      changeStatus: 'new',
      previousScrapeAt: null,
      visibility: 'visible',
    });

    const again = await track();
    expect(again.json.changeTracking).toMatchObject({ changeStatus: 'same', json: {} });

    sections = ['Getting there', 'Opening hours and prices', 'The café'];
    const edited = await track();
    expect(edited.json.changeTracking.changeStatus).toBe('changed');
    expect(edited.json.changeTracking.json).toEqual({
      'sections.2': { previous: 'Opening hours', current: 'Opening hours and prices' },
      'sections.3': { previous: null, current: 'The café' },
    });
    expect(edited.json.changeTracking.diff.text).toContain('+## The café');
  });

  it('takes the schema from a /v2 changeTracking entry in json mode, as Firecrawl does', async () => {
    sections = ['Getting there'];
    const url = `${site.origin}/guide/v2-${backend}`;
    const track = () =>
      t.api('POST', '/v2/scrape', {
        url,
        formats: [
          'markdown',
          { type: 'changeTracking', modes: ['json'], schema: SCHEMA, tag: 'v2' },
        ],
      });
    const first = await track();
    expect(first.status).toBe(200);
    expect(first.json.data.changeTracking).toMatchObject({ changeStatus: 'new', tag: 'v2' });
    sections = ['Getting here'];
    const edited = await track();
    expect(edited.json.data.changeTracking).toMatchObject({
      changeStatus: 'changed',
      json: { 'sections.1': { previous: 'Getting there', current: 'Getting here' } },
    });
  });

  it('answers 400 naming the mode when json mode has no extraction to compare', async () => {
    const native = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/guide/none`,
      formats: ['markdown', { type: 'changeTracking', modes: ['git-diff', 'json'] }],
    });
    expect(native.status).toBe(400);
    expect(native.json.details[0].field).toBe('formats[1].modes[1]');
    const v2 = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/guide/none`,
      formats: ['markdown', { type: 'changeTracking', modes: ['json'] }],
    });
    expect(v2.status).toBe(400);
    expect(JSON.stringify(v2.json)).toContain('modes');
  });
});

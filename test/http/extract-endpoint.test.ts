import { describe, expect, it } from 'vitest';
import { startOpenAiChatCompletionsServer } from '../fixtures/openai-chat-completions-server.ts';
import { startOpenAiResponsesServer } from '../fixtures/openai-responses-server.ts';
import { promptBreakerPage } from '../fixtures/prompt-breaker.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { ARTICLE_OBJECT, llm, SCHEMA, WINDOW } from '../helpers/llm-extract.ts';
import { observed } from '../helpers/observe.ts';
import { useServer } from '../helpers/server.ts';
import { waitForJob } from '../jobs/helpers.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite({ '/tricky-page': promptBreakerPage }));
const responses = useFixture(startOpenAiResponsesServer);
const chat = useFixture(() => startOpenAiChatCompletionsServer({ structuredOutput: true }));
const t = useServer({ settings: llm(responses) });
const tChat = useServer({
  settings: llm(chat, {
    WEBDATA_LLM_API: 'chat-completions',
    WEBDATA_EXTRACT_MAX_INPUT_CHARS: String(WINDOW),
  }),
});
const noLlm = useServer({ settings: { WEBDATA_BROWSER_POOL_SIZE: '1' } });

const article = () => `${site.origin}/article.html`;

describe('POST /v1/extract', () => {
  it('draws one object from every page fetched, as a job, and names the page that failed', async () => {
    const notes = `${site.origin}/notes.txt`;
    const { out: started, llm } = await observed(t, responses, async () => {
      const res = await t.api('POST', '/api/v1/extract', {
        urls: [article(), `${site.origin}/status/404`, notes],
        schema: SCHEMA,
        prompt: 'Summarise the sections.',
      });
      return { res, job: res.status === 202 ? await waitForJob(t, res.json.url) : undefined };
    });
    expect(started.res.status).toBe(202);
    expect(started.res.json.url).toMatch(/^\/api\/v1\/scrape\/async\/job\//);
    const job = started.job;
    expect(job).toMatchObject({ type: 'extract', status: 'completed', total: 1, cost: 0.006 });
    const result = job.data[0];
    // Two fetches and two pages read by the model: 2 × 0.002 + 2 × 0.001.
    expect(result).toMatchObject({
      success: true,
      cost: 0.006,
      json: { ...ARTICLE_OBJECT, pageCount: 2 },
    });
    expect(result.pages).toEqual([
      { url: article(), success: true, statusCode: 200 },
      {
        url: `${site.origin}/status/404`,
        success: false,
        statusCode: 404,
        error: 'the page answered HTTP 404',
      },
      { url: notes, success: true, statusCode: 200 },
    ]);
    expect(llm).toHaveLength(1);
    const input: string = llm[0]!.body.input;
    expect(input).toContain(`<page url="${article()}">`);
    expect(input).toContain(`<page url="${notes}">\nPlain text notes.\nSecond line.\n</page>`);
    expect(input).not.toContain('/status/404');
  });

  it('says which page was cut when the pages exceed the model window (Chat Completions)', async () => {
    const notes = `${site.origin}/notes.txt`;
    const res = await tChat.api('POST', '/api/v1/extract', {
      urls: [article(), notes],
      schema: SCHEMA,
    });
    const job = await waitForJob(tChat, res.json.url);
    const result = job.data[0];
    expect(result.success).toBe(true);
    expect(result.warning).toBe(
      `the page text (${result.warning.match(/\((\d+) characters\)/)[1]} characters) is longer than the model's window (${WINDOW} characters, WEBDATA_EXTRACT_MAX_INPUT_CHARS): only the first part of ${article()} was read, so values further down were not seen`,
    );
    const sent: string = chat.requests.at(-1)!.body.messages[1].content;
    const articleText = /<page url="[^"]*article.html">\n([\s\S]*?)\n<\/page>/.exec(sent)![1]!;
    // The short page is whole; the article gets the rest of the window.
    expect(sent).toContain('Plain text notes.\nSecond line.');
    expect(articleText.length).toBe(WINDOW - 'Plain text notes.\nSecond line.'.length);
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [
        { urls: [article()], schema: { type: 'object', properties: { a: { type: 'strin' } } } },
        'schema',
      ],
      [{ urls: [article()], schema: { type: 'array' } }, 'schema'],
      [{ urls: ['ftp://x.example/'], schema: SCHEMA }, 'urls[0]'],
      [
        { urls: Array.from({ length: 31 }, (_, i) => `http://x.example/${i}`), schema: SCHEMA },
        'urls',
      ],
    ];
    for (const [body, field] of cases) {
      const { status, json } = await t.api('POST', '/api/v1/extract', body);
      expect(status, field).toBe(400);
      expect(json.details[0].field).toBe(field);
    }
    const noModel = await noLlm.api('POST', '/api/v1/extract', {
      urls: [article()],
      schema: SCHEMA,
    });
    expect(noModel.status).toBe(400);
    expect(noModel.json.error).toMatch(/^schema: schema extraction needs an LLM/);
  });
});

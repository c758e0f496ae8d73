import { describe, expect, it } from 'vitest';
import { INVALID_ONCE, RUN_OUT_OF_TOKENS } from '../fixtures/llm-extraction.ts';
import { startOllamaChatServer } from '../fixtures/ollama-chat-server.ts';
import { startOpenAiChatCompletionsServer } from '../fixtures/openai-chat-completions-server.ts';
import { promptBreakerPage } from '../fixtures/prompt-breaker.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { ARTICLE_OBJECT, llm, SCHEMA, WINDOW } from '../helpers/llm-extract.ts';
import { observed } from '../helpers/observe.ts';
import { useServer } from '../helpers/server.ts';

/** A repair round's request: the first exchange, then the user's request to fix the answer. */
const REPAIR_ROUND_ROLES = ['system', 'user', 'assistant', 'user'];
const roleOf = (m: { role: string }) => m.role;

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite({ '/tricky-page': promptBreakerPage }));
const chat = useFixture(() => startOpenAiChatCompletionsServer({ structuredOutput: true }));
const chatPlain = useFixture(() => startOpenAiChatCompletionsServer({ structuredOutput: false }));
const ollama = useFixture(startOllamaChatServer);
const tChat = useServer({
  settings: llm(chat, {
    WEBDATA_LLM_API: 'chat-completions',
    WEBDATA_EXTRACT_MAX_INPUT_CHARS: String(WINDOW),
  }),
});
const tChatPlain = useServer({
  settings: llm(chatPlain, {
    WEBDATA_LLM_API: 'chat-completions',
    WEBDATA_LLM_STRUCTURED_OUTPUT: 'false',
  }),
});
const tOllama = useServer({
  settings: () => ({
    OPENAI_BASE_URL: ollama.origin,
    WEBDATA_LLM_API: 'ollama',
    WEBDATA_EXTRACT_MODEL: 'qwen3:4b',
  }),
});
const article = () => `${site.origin}/article.html`;

describe('extract on Chat Completions and Ollama', () => {
  it('sends response_format json_schema where the server supports it and reports a truncated answer', async () => {
    const { out, llm } = await observed(tChat, chat, () =>
      tChat.api('POST', '/api/v1/scrape/single', { url: article(), extract: { schema: SCHEMA } }),
    );
    expect(out.json).toMatchObject({ success: true, json: ARTICLE_OBJECT });
    // This server's window is smaller than the article: the result says the page was cut.
    expect(out.json.markdown.length).toBeGreaterThan(WINDOW);
    expect(out.json.warning).toContain(`only the first part of ${article()} was read`);
    const body = llm[0]!.body;
    expect(llm[0]!.path).toBe('/v1/chat/completions');
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'extraction', schema: SCHEMA, strict: false },
    });
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[1].content).toContain('## Zones of the shore');

    const cut = await tChat.api('POST', '/api/v1/scrape/single', {
      url: article(),
      extract: { schema: SCHEMA, prompt: RUN_OUT_OF_TOKENS },
    });
    expect(cut.json).toMatchObject({ success: false, finishReason: 'length', cost: 0.002 });
  });

  it('puts the schema in the prompt when structured output is turned off', async () => {
    const { out, llm } = await observed(tChatPlain, chatPlain, () =>
      tChatPlain.api('POST', '/api/v1/scrape/single', {
        url: article(),
        extract: { schema: SCHEMA, prompt: INVALID_ONCE },
      }),
    );
    expect(out.json).toMatchObject({ success: true, json: ARTICLE_OBJECT });
    expect(llm).toHaveLength(2);
    expect(llm[0]!.body.response_format).toBeUndefined();
    expect(llm[0]!.body.messages[1].content).toContain(
      `JSON Schema of the answer:\n${JSON.stringify(SCHEMA)}`,
    );
    expect(llm[1]!.body.messages.map(roleOf)).toEqual(REPAIR_ROUND_ROLES);
  });

  it('speaks Ollama chat: no key, the schema as format, stream off, repair round included', async () => {
    const { out, llm } = await observed(tOllama, ollama, () =>
      tOllama.api('POST', '/api/v1/scrape/single', {
        url: article(),
        extract: { schema: SCHEMA, prompt: INVALID_ONCE },
      }),
    );
    expect(out.json).toMatchObject({ success: true, cost: 0.003, json: ARTICLE_OBJECT });
    expect(llm).toHaveLength(2);
    expect(llm[0]!.path).toBe('/api/chat');
    expect(llm[0]!.headers.authorization).toBeUndefined();
    expect(llm[0]!.body).toMatchObject({ model: 'qwen3:4b', stream: false, format: SCHEMA });
    expect(llm[0]!.body.messages[1].content).toContain('## Zones of the shore');
    expect(llm[1]!.body.messages.map(roleOf)).toEqual(REPAIR_ROUND_ROLES);
  });

  it('writes summaries through the same endpoint, as plain text without a format', async () => {
    const { out, llm } = await observed(tOllama, ollama, () =>
      tOllama.api('POST', '/api/v1/scrape/single', {
        url: article(),
        summary: { query: 'What is this?' },
      }),
    );
    expect(out.json).toMatchObject({
      success: true,
      cost: 0.003,
      summarizer: 'llm',
      content: 'Here is what I found on the page.',
    });
    expect(llm).toHaveLength(1);
    expect(llm[0]!.path).toBe('/api/chat');
    expect(llm[0]!.body.format).toBeUndefined();
    expect(llm[0]!.body.messages[1].content).toMatch(/^Instruction: What is this\?\n/);
  });
});

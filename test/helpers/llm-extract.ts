import { OPENAI_TEST_KEY } from '../fixtures/openai-responses-server.ts';
import type { StandInServer } from '../fixtures/stand-in-server.ts';

/** The caller's schema used throughout: what the fixture models fill from the pages they are sent. */
export const SCHEMA = {
  type: 'object',
  properties: {
    topic: { type: 'string' },
    sections: { type: 'array', items: { type: 'string' } },
    pageCount: { type: 'integer' },
  },
  required: ['topic', 'sections'],
  additionalProperties: false,
};
/** The article's main content, as the fixture model reads it: its first heading (the title heading the markdown starts with) and every heading. */
export const ARTICLE_OBJECT = {
  topic: 'How Tide Pools Keep Their Secrets',
  sections: ['How Tide Pools Keep Their Secrets', 'Zones of the shore', 'What lives where'],
  pageCount: 1,
};
/** The model window, in characters, of the servers that test cutting pages to fit. */
export const WINDOW = 1000;

/** Settings for a server extracting through the fixture model `model` speaks for. */
export const llm =
  (model: StandInServer, more: Record<string, string> = {}) =>
  () => ({ ...extractModelAt(model), WEBDATA_BROWSER_POOL_SIZE: '1', ...more });

/** The settings that send the service's extraction to the fixture model `model` speaks for. */
export const extractModelAt = (model: { origin: string }) => ({
  OPENAI_BASE_URL: `${model.origin}/v1`,
  OPENAI_API_KEY: OPENAI_TEST_KEY,
  WEBDATA_EXTRACT_MODEL: 'gpt-5-nano',
});

export { ExtractError, extractJson, type PageText } from './llm-extract.ts';
export { type ExtractRequest, extractPage, needsMarkdown } from './page.ts';
export { MAX_SCHEMA_BYTES, schemaProblem } from './schema.ts';

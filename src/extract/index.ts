export { MAX_SCHEMA_BYTES, schemaProblem } from './schema.ts';
export { extractJson, ExtractError, type PageText } from './llm-extract.ts';
export { extractPage, needsMarkdown, type ExtractRequest } from './page.ts';

export { MAX_SCHEMA_BYTES, schemaProblem } from './schema.ts';
export { extractJson, ExtractError, type JsonExtraction, type PageText } from './llm-extract.ts';
export { extractPage, needsMarkdown, type ExtractRequest, type PageExtraction } from './page.ts';

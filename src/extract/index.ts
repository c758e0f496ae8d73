export { ExtractError, extractJson, type PageText } from './llm-extract.ts';
export { type ExtractRequest, extractPage, needsMarkdown } from './page.ts';
export { MAX_SCHEMA_BYTES } from './schema.ts';
export { checkSchema, holdSchemaWorkers } from './schema-pool.ts';
export { MAX_SCHEMA_EXPANDED } from './schema-walk.ts';
export { type SummaryRequest, summarise } from './summary.ts';

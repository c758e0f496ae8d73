export { ContentPool } from './pool.ts';
export { convertHtml } from './convert.ts';
export type { ConvertInput, ConvertOutput, OutputFormat, PageMetadata } from './types.ts';

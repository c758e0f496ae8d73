export { ContentPool } from './pool.ts';
export { convertHtml } from './convert.ts';
export type { ConvertOutput, OutputFormat, PageMetadata } from './types.ts';
export { type PdfStrategy } from './pdf.ts';
export { summarise, type SummaryRequest } from './summary.ts';
export { extractiveSummary } from './extractive-summary.ts';
export { selectorProblem, type Selectors } from './select.ts';
export { selectTags, SelectorError } from './select-tags.ts';

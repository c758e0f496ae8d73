export { ContentPool } from './pool.ts';
export { convertHtml } from './convert.ts';
export type { ConvertInput, ConvertOutput, OutputFormat, PageMetadata } from './types.ts';
export { convertPdf, type PdfStrategy, type PdfConversion } from './pdf.ts';
export { summarise, SummaryError, type Summarizer, type Summary, type SummaryRequest } from './summary.ts';
export { extractiveSummary } from './extractive-summary.ts';
export { selectorProblem, type SelectedValue, type Selectors, type SelectorSpec } from './select.ts';
export { selectTags, SelectorError } from './select-tags.ts';

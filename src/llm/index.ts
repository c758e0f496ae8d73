export { complete, type FinishReason, type LlmMessage, llmConfigured } from './complete.ts';
export { UpstreamError } from './errors.ts';
export { requestJson } from './json-client.ts';
export { pageBlock } from './page-block.ts';

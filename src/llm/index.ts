export { UpstreamError } from './errors.ts';
export { requestJson } from './json-client.ts';
export { complete, llmConfigured, type FinishReason, type LlmMessage } from './complete.ts';

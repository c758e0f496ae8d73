export { UpstreamError } from './errors.ts';
export { requestJson, type JsonRequest } from './json-client.ts';
export { complete, llmConfigured, type FinishReason, type LlmAnswer, type LlmCall, type LlmMessage } from './complete.ts';

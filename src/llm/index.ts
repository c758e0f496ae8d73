export {
  completeOr,
  type FinishReason,
  type LlmMessage,
  llmConfigured,
} from './complete.ts';
export { pageBlock } from './page-block.ts';

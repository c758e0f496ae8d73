export { deleteWebhookEvents, jobWebhookEvents, type WebhookEventView } from './attempts.ts';
export { WebhookDeliverer } from './deliverer.ts';
export { writeEvent } from './outbox.ts';
export { WebhookSecrets } from './secrets.ts';
export {
  checkWebhookHost,
  checkWebhookTarget,
  WEBHOOK_HEADER_LIMITS,
  WebhookTargetError,
} from './target-check.ts';
export {
  MONITOR_EVENTS,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  type WebhookTarget,
} from './types.ts';

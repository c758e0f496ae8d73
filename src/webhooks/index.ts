export { WEBHOOK_EVENTS, type WebhookEvent, type WebhookTarget } from './types.ts';
export { writeEvent } from './outbox.ts';
export { WebhookSecrets } from './secrets.ts';
export { WebhookDeliverer } from './deliverer.ts';
export { jobWebhookEvents, deleteWebhookEvents, type WebhookEventView } from './attempts.ts';

export { WEBHOOK_EVENTS, type WebhookEvent, type WebhookTarget } from './types.ts';
export { writeEvent, type OutboxEvent } from './outbox.ts';
export { sign, verify, SIGNATURE_HEADER, TIMESTAMP_HEADER, EVENT_ID_HEADER, EVENT_HEADER } from './sign.ts';
export { WebhookSecrets } from './secrets.ts';
export { WebhookDeliverer, type DelivererOptions } from './deliverer.ts';
export { jobWebhookEvents, deleteWebhookEvents, type WebhookEventView } from './attempts.ts';

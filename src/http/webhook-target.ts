import type { Config } from '../config.ts';
import {
  checkWebhookHost,
  checkWebhookTarget,
  WEBHOOK_EVENTS,
  type WebhookTarget,
  WebhookTargetError,
} from '../webhooks/index.ts';
import { badRequest } from './errors.ts';
import type { WebhookBody } from './schemas/webhooks.ts';

/**
 * A webhook as the deliverer will use it, refused up front (400 naming the field) by the
 * deliverer's own check (scheme, credentials, port, the SSRF guard, header names and values),
 * and when its host resolves to a refused address now. Every delivery is checked again, as a
 * name can resolve elsewhere later.
 */
export async function webhookTarget(
  body: WebhookBody | undefined,
  config: Config,
): Promise<WebhookTarget | undefined> {
  if (!body) return undefined;
  const headers = body.headers ?? {};
  try {
    const url = checkWebhookTarget({ url: body.url, headers }, config.network);
    await checkWebhookHost(url, config.network);
    return { url: url.href, headers, events: body.events ?? [...WEBHOOK_EVENTS] };
  } catch (err) {
    if (err instanceof WebhookTargetError) throw badRequest(`webhook.${err.field}`, err.message);
    throw err;
  }
}

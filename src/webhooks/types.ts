export const WEBHOOK_EVENTS = ['started', 'item', 'completed', 'failed', 'cancelled'] as const;
/** A monitor's events: a check that found changes, and (with notify always) one that found none. */
export const MONITOR_EVENTS = ['monitor.change', 'monitor.check'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number] | (typeof MONITOR_EVENTS)[number];

/** Where a job's events go: the caller's URL, extra headers sent with each delivery, and which events. */
export interface WebhookTarget {
  url: string;
  headers: Record<string, string>;
  events: WebhookEvent[];
}

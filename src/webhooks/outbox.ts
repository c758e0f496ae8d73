import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Tables } from '../store/index.ts';
import type { WebhookEvent, WebhookTarget } from './types.ts';

export interface OutboxEvent {
  jobId: string;
  userId: string;
  jobType: string;
  target: WebhookTarget;
  event: WebhookEvent;
  /** The event's payload: the item (index and result) or the job's final state. */
  data: object;
}

/**
 * Writes a job's event to the outbox inside the caller's transaction, so an event exists exactly
 * when the change it reports committed. Events the target did not ask for are not written.
 */
export async function writeEvent(
  trx: Transaction<Tables>,
  e: OutboxEvent,
  now = Date.now(),
): Promise<void> {
  if (!e.target.events.includes(e.event)) return;
  const id = randomUUID();
  const body = JSON.stringify({
    id,
    type: e.event,
    jobId: e.jobId,
    jobType: e.jobType,
    createdAt: new Date(now).toISOString(),
    data: e.data,
  });
  await trx
    .insertInto('webhook_events')
    .values({
      id,
      job_id: e.jobId,
      user_id: e.userId,
      event: e.event,
      url: e.target.url,
      headers: JSON.stringify(e.target.headers),
      body,
      state: 'pending',
      attempts: 0,
      next_at: now,
      created_at: now,
      delivered_at: null,
    })
    .execute();
}

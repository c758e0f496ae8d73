import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Tables } from '../store/index.ts';
import type { WebhookEvent } from './types.ts';

export interface WebhookEventView {
  id: string;
  event: WebhookEvent;
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: Array<{
    attempt: number;
    at: string;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
  }>;
  createdAt: string;
  deliveredAt: string | null;
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** A job's webhook events, oldest first, each with its delivery attempts; a page of them. */
export async function jobWebhookEvents(
  db: Kysely<Tables>,
  jobId: string,
  offset: number,
  limit: number,
): Promise<{ events: WebhookEventView[]; total: number }> {
  const { n } = await db
    .selectFrom('webhook_events')
    .where('job_id', '=', jobId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('webhook_events')
    .select(['id', 'event', 'url', 'state', 'created_at', 'delivered_at'])
    .where('job_id', '=', jobId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('event_id', 'in', ids)
        .orderBy('event_id')
        .orderBy('attempt')
        .execute()
    : [];
  const byEvent = Map.groupBy(attempts, (a) => a.event_id);
  return {
    total: Number(n),
    events: rows.map((r) => ({
      id: r.id,
      event: r.event as WebhookEvent,
      url: r.url,
      state: r.state as WebhookEventView['state'],
      attempts: (byEvent.get(r.id) ?? []).map((a) => ({
        attempt: a.attempt,
        at: iso(a.at),
        statusCode: a.status_code,
        error: a.error,
        durationMs: a.duration_ms,
      })),
      createdAt: iso(r.created_at),
      deliveredAt: r.delivered_at === null ? null : iso(r.delivered_at),
    })),
  };
}

/** Deletes the events and attempts of the given jobs (run by the job sweep, with the jobs it deletes). */
export async function deleteWebhookEvents(
  db: Kysely<Tables>,
  jobIds: SelectQueryBuilder<Tables, 'jobs', { id: string }>,
): Promise<void> {
  await db.deleteFrom('webhook_attempts').where('job_id', 'in', jobIds).execute();
  await db.deleteFrom('webhook_events').where('job_id', 'in', jobIds).execute();
}

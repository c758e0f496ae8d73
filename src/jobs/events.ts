import type { Transaction } from 'kysely';
import { microsToUsd } from '../billing/index.ts';
import type { Tables } from '../store/index.ts';
import { type WebhookEvent, type WebhookTarget, writeEvent } from '../webhooks/index.ts';

type JobRow = Tables['jobs'];

/** What a job event needs from the job row. */
type EventSource = Pick<JobRow, 'id' | 'user_id' | 'type' | 'webhook'>;

/** Writes a job's event to the webhook outbox when the job has a webhook. */
export async function emit(
  trx: Transaction<Tables>,
  job: EventSource,
  event: WebhookEvent,
  data: object,
  now: number,
): Promise<boolean> {
  if (!job.webhook) return false;
  const target = JSON.parse(job.webhook) as WebhookTarget;
  await writeEvent(
    trx,
    { jobId: job.id, userId: job.user_id, jobType: job.type, target, event, data },
    now,
  );
  return true;
}

/** The job's state as its final events report it. */
export function finalState(
  row: Pick<JobRow, 'status' | 'total' | 'completed' | 'cost_micros' | 'error'>,
) {
  return {
    status: row.status,
    total: row.total,
    completed: row.completed,
    cost: microsToUsd(Number(row.cost_micros)),
    ...(row.error ? { error: row.error } : {}),
  };
}

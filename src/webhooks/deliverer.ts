import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { Agent, request } from 'undici';
import { guardedLookup, type NetworkPolicy } from '../acquire/index.ts';
import { FairLane, type Release } from '../fair/index.ts';
import type { Tables } from '../store/index.ts';
import type { WebhookSecrets } from './secrets.ts';
import { EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from './sign.ts';
import { checkWebhookTarget } from './target-check.ts';

export interface DelivererOptions {
  policy: NetworkPolicy;
  timeoutMs: number;
  maxAttempts: number;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  /** Deliveries of one user in flight at once in this process: a receiver that never answers holds no more. */
  perKey: number;
  /** Wait before the second attempt; doubled for each later one, up to MAX_BACKOFF_MS. */
  backoffMs: number;
  log: FastifyBaseLogger;
}

/** How often the outbox is read when nothing wakes the deliverer sooner (events written by another process). */
const POLL_MS = 250;
const MAX_BACKOFF_MS = 10 * 60_000;
/** Longest error text kept per attempt. */
const MAX_ERROR = 500;

type EventRow = Tables['webhook_events'];

/**
 * Delivers the webhook outbox. Any number of processes may run one: an event is claimed by a
 * conditional update that pushes its next attempt past the attempt's deadline, so two processes
 * never send the same attempt, and an attempt cut short by a crash is made again once that lease
 * passes. Every attempt is recorded; a receiver that does not answer 2xx in time is tried again
 * with exponential backoff, up to `maxAttempts`. Redirects are not followed: each delivery goes
 * to the URL the SSRF guard accepted, and every connection is checked again after DNS.
 */
export class WebhookDeliverer {
  readonly #db: Kysely<Tables>;
  readonly #secrets: WebhookSecrets;
  readonly #opts: DelivererOptions;
  readonly #agent: Agent;
  readonly #running = new Set<Promise<void>>();
  /** Places of deliveries in flight, by user. */
  readonly #lane: FairLane;
  #timer?: NodeJS.Timeout;
  #passing = false;
  #again = false;
  #closed = false;

  constructor(db: Kysely<Tables>, secrets: WebhookSecrets, opts: DelivererOptions) {
    this.#db = db;
    this.#secrets = secrets;
    this.#opts = opts;
    this.#lane = new FairLane({ capacity: opts.concurrency, perKey: opts.perKey });
    this.#agent = new Agent({
      connect: { lookup: guardedLookup(opts.policy), timeout: opts.timeoutMs },
    });
  }

  start(): void {
    this.kick();
  }

  /** Reads the outbox now (an event was just written); passes never overlap. */
  kick(): void {
    if (this.#closed) return;
    if (this.#passing) {
      this.#again = true;
      return;
    }
    this.#passing = true;
    clearTimeout(this.#timer);
    void this.#pass().finally(() => {
      this.#passing = false;
      if (this.#closed) return;
      if (this.#again) {
        this.#again = false;
        this.kick();
      } else {
        this.#timer = setTimeout(() => this.kick(), POLL_MS);
      }
    });
  }

  async #pass(): Promise<void> {
    try {
      while (!this.#closed && this.#lane.used < this.#opts.concurrency) {
        const claimed = await this.#claimDue(this.#opts.concurrency - this.#lane.used);
        if (claimed.length === 0) return;
        for (const { row, release } of claimed) {
          const task: Promise<void> = this.#deliver(row)
            .catch((err) =>
              this.#opts.log.warn(
                { err, event: row.id },
                'could not record a webhook attempt; it runs again after its lease',
              ),
            )
            .finally(() => {
              release();
              this.#running.delete(task);
              this.kick();
            });
          this.#running.add(task);
        }
      }
    } catch (err) {
      this.#opts.log.warn({ err }, 'could not read the webhook outbox');
    }
  }

  /**
   * Claims up to `n` due events, taking users in turn (each user's oldest first, none beyond its
   * free places), so one user's backlog or silent receiver never fills every slot: each one's next
   * attempt is pushed past this attempt's deadline and its count raised, in one statement. An
   * event another process claimed meanwhile no longer matches `next_at <= now` and is left to it.
   */
  async #claimDue(n: number): Promise<Array<{ row: EventRow; release: Release }>> {
    const now = Date.now();
    const full = this.#lane.saturated();
    const { rows: due } = await sql<{ id: string; user_id: string }>`
      select id, user_id from (
        select id, user_id, next_at,
          row_number() over (partition by user_id order by next_at, id) as turn
        from webhook_events
        where state = 'pending' and next_at <= ${now}
          ${full.length > 0 ? sql`and user_id not in (${sql.join(full)})` : sql``}
      ) due
      where turn <= ${this.#opts.perKey}
      order by turn, next_at
      limit ${n}`.execute(this.#db);
    const taking = new Map<string, number>();
    const fits = due.filter((d) => {
      const after = (taking.get(d.user_id) ?? this.#lane.heldBy(d.user_id)) + 1;
      if (after > this.#opts.perKey) return false;
      taking.set(d.user_id, after);
      return true;
    });
    if (fits.length === 0) return [];
    const rows = await this.#db
      .updateTable('webhook_events')
      .set((eb) => ({
        next_at: now + this.#opts.timeoutMs + 5_000,
        attempts: eb('attempts', '+', 1),
      }))
      .where(
        'id',
        'in',
        fits.map((d) => d.id),
      )
      .where('state', '=', 'pending')
      .where('next_at', '<=', now)
      .returningAll()
      .execute();
    // Places are free for each of these: checked above, and only this pass takes them.
    return rows.map((row) => ({ row, release: this.#lane.take(row.user_id)! }));
  }

  /** Makes one attempt of a claimed event (its `attempts` already counts it) and records it. */
  async #deliver(row: EventRow): Promise<void> {
    const attempt = row.attempts;
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const secret = await this.#secrets.get(row.user_id);
      if (!secret) throw new Error('the account has no webhook secret');
      const headers = JSON.parse(row.headers) as Record<string, string>;
      const url = checkWebhookTarget({ url: row.url, headers }, this.#opts.policy);
      const timestamp = Math.floor(Date.now() / 1000);
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.#agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'user-agent': 'webdata-webhooks/1',
          [SIGNATURE_HEADER]: sign(secret, timestamp, row.body),
          [TIMESTAMP_HEADER]: String(timestamp),
          [EVENT_ID_HEADER]: row.id,
          [EVENT_HEADER]: row.event,
        },
        body: row.body,
        signal: AbortSignal.timeout(this.#opts.timeoutMs),
      });
      statusCode = res.statusCode;
      await res.body.dump();
      if (statusCode < 200 || statusCode >= 300) error = `the receiver answered HTTP ${statusCode}`;
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR);
    }
    const now = Date.now();
    const ok = error === null;
    const giveUp = !ok && attempt >= this.#opts.maxAttempts;
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          event_id: row.id,
          job_id: row.job_id,
          attempt,
          at: started,
          status_code: statusCode,
          error,
          duration_ms: now - started,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx
        .updateTable('webhook_events')
        .set(
          ok
            ? { state: 'delivered', delivered_at: now }
            : giveUp
              ? { state: 'failed' }
              : {
                  next_at:
                    now + Math.min(MAX_BACKOFF_MS, this.#opts.backoffMs * 2 ** (attempt - 1)),
                },
        )
        .where('id', '=', row.id)
        .where('attempts', '=', attempt)
        .where('state', '=', 'pending')
        .execute();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await Promise.allSettled([...this.#running]);
    await this.#agent.close();
  }
}

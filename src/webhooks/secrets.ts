import type { Kysely } from 'kysely';
import type { Tables } from '../store/index.ts';
import { generateSecret } from './sign.ts';

/** Each user's webhook signing secret. Readable only by the deliverer; a user sees it when it is made. */
export class WebhookSecrets {
  readonly #db: Kysely<Tables>;

  constructor(db: Kysely<Tables>) {
    this.#db = db;
  }

  /** Makes a new secret for the user, replacing any old one, and answers it: the only time it is shown. */
  async rotate(userId: string): Promise<{ secret: string; createdAt: number }> {
    const secret = generateSecret();
    const now = Date.now();
    await this.#db
      .insertInto('webhook_secrets')
      .values({ user_id: userId, secret, created_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, created_at: now }))
      .execute();
    return { secret, createdAt: now };
  }

  /** Makes a secret only when the user has none; answers it when made, undefined when one existed. */
  async ensure(userId: string): Promise<string | undefined> {
    const secret = generateSecret();
    const result = await this.#db
      .insertInto('webhook_secrets')
      .values({ user_id: userId, secret, created_at: Date.now() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? secret : undefined;
  }

  async get(userId: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('webhook_secrets')
      .select('secret')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.secret;
  }
}

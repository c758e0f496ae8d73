import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Tables } from './schema.ts';

/** The tables whose rows each belong to one user (`user_id`). */
type UserTable = {
  [T in keyof Tables]: Tables[T] extends { user_id: string } ? T : never;
}[keyof Tables];

/** All of `table`'s columns for the rows that are the user's: where a user's reads start. */
export function usersRows<T extends UserTable>(
  db: Kysely<Tables>,
  table: T,
  userId: string,
): SelectQueryBuilder<Tables, T, Selectable<Tables[T]>> {
  // Kysely cannot name a column of a table picked by a type parameter: the query is built on all
  // such tables at once, then typed as the one asked for (the SQL is the same for each).
  const from: SelectQueryBuilder<Tables, UserTable, object> = db.selectFrom(table);
  return from.selectAll().where('user_id', '=', userId) as SelectQueryBuilder<
    Tables,
    T,
    Selectable<Tables[T]>
  >;
}

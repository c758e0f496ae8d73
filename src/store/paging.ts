import type { OrderByExpression, SelectQueryBuilder } from 'kysely';

/**
 * The `page`th run of `limit` rows (pages count from 1), newest first by the first column, then by
 * the second among rows alike in the first.
 */
export function newestPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  [newest, then]: [OrderByExpression<DB, TB, O>, OrderByExpression<DB, TB, O>],
  { page, limit }: { page: number; limit: number },
): SelectQueryBuilder<DB, TB, O> {
  return query
    .orderBy(newest, 'desc')
    .orderBy(then, 'desc')
    .limit(limit)
    .offset((page - 1) * limit);
}

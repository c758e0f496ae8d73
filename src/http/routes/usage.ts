import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { microsToUsd } from '../../billing/index.ts';
import { DAY_MS, type UsageTotal } from '../../store/index.ts';
import type { RouteDeps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { USAGE_DEFAULT_DAYS, USAGE_MAX_DAYS, UsageQuery, UsageResponse } from '../schemas/usage.ts';

/** A YYYY-MM-DD query value as days since 1970-01-01 (UTC), or a 400 naming the field. */
function dayParam(raw: string | undefined, field: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : NaN;
  // Date.parse rolls 2026-02-30 over to March; a date that does not print back as given is not a date.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw)
    throw badRequest(field, `must be a date as YYYY-MM-DD, got "${raw}"`);
  return ms / DAY_MS;
}

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

interface Sum {
  operation: string;
  units: number;
  costMicros: number;
  charges: number;
}

function addUp(rows: UsageTotal[]): Sum[] {
  const byOp = new Map<string, Sum>();
  for (const r of rows) {
    const sum = byOp.get(r.operation) ?? {
      operation: r.operation,
      units: 0,
      costMicros: 0,
      charges: 0,
    };
    sum.units += r.units;
    sum.costMicros += r.costMicros;
    sum.charges += r.charges;
    byOp.set(r.operation, sum);
  }
  return [...byOp.values()].sort((a, b) => a.operation.localeCompare(b.operation));
}

const view = (s: Sum) => ({
  operation: s.operation,
  units: s.units,
  cost: microsToUsd(s.costMicros),
  charges: s.charges,
});
const totalMicros = (sums: Sum[]) => sums.reduce((n, s) => n + s.costMicros, 0);

/** The caller's own charges from the usage ledger, by UTC day and operation. */
export const usageRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.get(
    '/v1/usage',
    {
      schema: {
        tags: ['usage'],
        summary: "The caller's charges by day and operation, from the usage ledger",
        querystring: UsageQuery,
        response: { 200: UsageResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const today = Math.floor(Date.now() / DAY_MS);
      const to = dayParam(request.query.to, 'to', today);
      const from = dayParam(request.query.from, 'from', to - (USAGE_DEFAULT_DAYS - 1));
      if (from > to) throw badRequest('from', `must not be after to (${dateOf(to)})`);
      if (to - from + 1 > USAGE_MAX_DAYS)
        throw badRequest('from', `the span from..to is at most ${USAGE_MAX_DAYS} days`);
      const rows = await deps.ledger.usageByDay(
        request.user.userId,
        from * DAY_MS,
        (to + 1) * DAY_MS,
      );
      const byDay = Map.groupBy(rows, (r) => r.day);
      const operations = addUp(rows);
      return {
        success: true as const,
        from: dateOf(from),
        to: dateOf(to),
        totalCost: microsToUsd(totalMicros(operations)),
        operations: operations.map(view),
        days: [...byDay.entries()].map(([day, dayRows]) => {
          const sums = addUp(dayRows);
          return {
            date: dateOf(day),
            cost: microsToUsd(totalMicros(sums)),
            operations: sums.map(view),
          };
        }),
      };
    },
  );
};

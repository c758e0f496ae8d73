import { Type } from 'typebox';
import { Cost } from '../../contract/index.ts';

/** Longest span one usage request covers, in days. */
export const USAGE_MAX_DAYS = 366;
/** Span covered when `from` is not given, in days, ending with `to`. */
export const USAGE_DEFAULT_DAYS = 30;

const Day = (what: string) => Type.String({ description: `${what} (UTC), YYYY-MM-DD, inclusive` });

export const UsageQuery = Type.Object({
  from: Type.Optional(Day(`First day; default ${USAGE_DEFAULT_DAYS - 1} days before \`to\``)),
  to: Type.Optional(Day('Last day; default today')),
});

const OperationUsage = Type.Object({
  operation: Type.String({
    description:
      'What was charged: search, scrape, cached (a result served from the cache), summary, pdf-ocr, sequence, map, screenshot, pdf, session',
  }),
  units: Type.Integer({
    description:
      'Units charged: pages, queries, breakpoints, documents; billed seconds for sessions',
  }),
  cost: Cost,
  charges: Type.Integer({ description: 'Ledger entries added up' }),
});

export const UsageResponse = Type.Object({
  success: Type.Literal(true),
  from: Type.String(),
  to: Type.String(),
  totalCost: Cost,
  operations: Type.Array(OperationUsage, { description: 'The whole span, by operation' }),
  days: Type.Array(
    Type.Object({ date: Type.String(), cost: Cost, operations: Type.Array(OperationUsage) }),
    {
      description: 'Days with charges, oldest first',
    },
  ),
});

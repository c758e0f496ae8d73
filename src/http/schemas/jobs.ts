import { type Static, Type } from 'typebox';
import { Cost, Timestamp } from '../../contract/index.ts';
import { JOB_STATUSES, JOB_TYPES } from '../../jobs/index.ts';
import {
  Format,
  ProxyObject,
  ScrapeBatchBody,
  ScrapeSingleBody,
  SequenceBody,
} from '../../ops/index.ts';
import { badRequest } from '../errors.ts';
import { searchBody } from './search.ts';
import { withWebhook } from './webhooks.ts';

/** Spec limits of the async start endpoints. */
export const ASYNC_BATCH_MAX_URLS = 30;
export const SEARCH_BATCH_MAX_QUERIES = 20;
/** The spec leaves the sequence batch's maximum open; it matches the URL batch's. */
export const SEQUENCE_BATCH_MAX = 30;
/** Largest page of job results or job list asked for at once. */
export const JOB_PAGE_MAX = 100;

const strict = { additionalProperties: false } as const;

export const AsyncSingleBody = withWebhook(ScrapeSingleBody);

export const AsyncBatchBody = withWebhook(ScrapeBatchBody);
export type AsyncBatchBody = Static<typeof AsyncBatchBody>;

export const AsyncSequenceBody = withWebhook(SequenceBody);

export const AsyncSequenceBatchBody = withWebhook(
  Type.Object(
    {
      sequences: Type.Array(SequenceBody, { minItems: 1, maxItems: SEQUENCE_BATCH_MAX }),
      type: Type.Optional(Format),
      proxy: Type.Optional(ProxyObject),
    },
    strict,
  ),
);
export type AsyncSequenceBatchBody = Static<typeof AsyncSequenceBatchBody>;

export const AsyncSearchBatchBody = withWebhook(searchBody(SEARCH_BATCH_MAX_QUERIES));
export type AsyncSearchBatchBody = Static<typeof AsyncSearchBatchBody>;

export const JobCreated = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  url: Type.String({ description: 'Relative URL to poll' }),
  webhookSecret: Type.Optional(
    Type.String({
      description:
        "The key's webhook signing secret, made by this request because it had none; shown only here",
    }),
  ),
});

const JobTypeSchema = Type.Enum(JOB_TYPES);
const JobStatusSchema = Type.Enum(JOB_STATUSES);

export const AsyncJob = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  type: JobTypeSchema,
  status: JobStatusSchema,
  total: Type.Number(),
  completed: Type.Number({ description: 'Items with a result, successful or not' }),
  cost: Cost,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  error: Type.Optional(
    Type.String({ description: 'Why the job could not run at all (status failed)' }),
  ),
  data: Type.Array(Type.Unknown(), {
    description: 'Item results of this page in input order; null for an item without a result',
  }),
  next: Type.Optional(
    Type.String({ description: 'Relative URL of the next page, when one exists' }),
  ),
});

export const JobQuery = Type.Object({
  offset: Type.Optional(Type.String({ description: 'Index of the first item, default 0' })),
  limit: Type.Optional(
    Type.String({ description: `Items per page, 1 to ${JOB_PAGE_MAX}, default 10` }),
  ),
});

export const JobListQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'Page number from 1, default 1' })),
  limit: Type.Optional(
    Type.String({ description: `Jobs per page, 1 to ${JOB_PAGE_MAX}, default 20` }),
  ),
  type: Type.Optional(JobTypeSchema),
});

export const JobSummarySchema = Type.Object({
  id: Type.String(),
  type: JobTypeSchema,
  status: JobStatusSchema,
  total: Type.Number(),
  completed: Type.Number(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});

export const JobList = Type.Object({
  jobs: Type.Array(JobSummarySchema),
  total: Type.Number(),
  page: Type.Number(),
  limit: Type.Number(),
});

export const JobCancelled = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  status: Type.Literal('cancelled'),
  total: Type.Number(),
  completed: Type.Number(),
});

export const JobIdParams = Type.Object({ id: Type.String({ minLength: 1 }) });

/** A whole-number query parameter within bounds, named in the 400 when it is not. */
export function intParam(
  raw: string | undefined,
  field: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw badRequest(field, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw badRequest(field, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** The `offset`/`limit` of a page of a job's items (results, webhook events), checked. */
export function jobPageParams(query: Static<typeof JobQuery>): { offset: number; limit: number } {
  return {
    offset: intParam(query.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: intParam(query.limit, 'limit', 10, 1, JOB_PAGE_MAX),
  };
}

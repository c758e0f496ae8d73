/**
 * Async job, webhook and usage shapes of the webdata API (docs/spec.md), written by hand so the package depends on
 * nothing of the server; test/client/openapi-contract.test.ts checks every one against the
 * server's /openapi.json.
 */

export type JobType =
  | 'scrape-single'
  | 'scrape-batch'
  | 'sequence'
  | 'sequence-batch'
  | 'search-batch'
  | 'crawl'
  | 'extract';
export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** Where an async job reports its events: a signed POST per event. */
export interface Webhook {
  url: string;
  headers?: Record<string, string>;
  /** Events to deliver; default all. */
  events?: Array<'started' | 'item' | 'completed' | 'failed' | 'cancelled'>;
}

/** What every async start accepts beside its sync twin's fields. */
export interface AsyncOptions {
  webhook?: Webhook;
}

export interface JobCreated {
  success: true;
  id: string;
  url: string;
  /** The key's webhook signing secret, made by this request because it had none; shown only here. */
  webhookSecret?: string;
}

export interface Job<Item = unknown> {
  success: true;
  id: string;
  status: JobStatus;
  type: JobType;
  total: number;
  completed: number;
  cost: number;
  createdAt: string;
  expiresAt: string;
  /** Why the job could not run at all (status failed). */
  error?: string;
  /** This page's item results in input order; null for an item without a result. */
  data: Item[];
  next?: string;
}

export interface JobCancelled {
  success: true;
  id: string;
  status: 'cancelled';
  total: number;
  completed: number;
}

export interface JobList {
  jobs: Array<{
    id: string;
    type: JobType;
    status: JobStatus;
    total: number;
    completed: number;
    createdAt: string;
    expiresAt: string;
  }>;
  total: number;
  page: number;
  limit: number;
}

export interface OperationUsage {
  operation: string;
  units: number;
  cost: number;
  charges: number;
}

export interface Usage {
  success: true;
  from: string;
  to: string;
  totalCost: number;
  operations: OperationUsage[];
  days: Array<{ date: string; cost: number; operations: OperationUsage[] }>;
}

import type { WebhookTarget } from '../webhooks/index.ts';
import type { Schedule } from './schedule.ts';

export type Notify = 'change' | 'always';

/** The job a check runs: its type and inputs, fixed when the monitor was made. */
export interface CheckJob {
  type: 'scrape-batch' | 'crawl';
  inputs: unknown[];
  keys?: string[];
  maxItems?: number;
}

/** A monitor to store, checked by the caller: its id is chosen first, as its pages' change-tracking tag names it. */
export interface NewMonitor {
  id: string;
  userId: string;
  name?: string;
  /** The request as the caller gave it, answered back by GET (without webhook headers). */
  request: object;
  job: CheckJob;
  schedule: Schedule;
  notify: Notify;
  webhook?: WebhookTarget;
  paused: boolean;
}

/** What PATCH may change. */
export interface MonitorPatch {
  name?: string;
  schedule?: Schedule;
  notify?: Notify;
  /** null removes it. */
  webhook?: WebhookTarget | null;
  paused?: boolean;
}

export type MonitorStatus = 'active' | 'paused' | 'failing';

export interface MonitorView {
  id: string;
  name?: string;
  request: Record<string, unknown>;
  schedule: Schedule;
  notify: Notify;
  webhook?: { url: string };
  paused: boolean;
  /** paused; failing when the last check failed; active otherwise. */
  status: MonitorStatus;
  nextRunAt: number;
  runningCheck: string | null;
  checks: number;
  lastCheckAt: number | null;
  lastStatus: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  createdAt: number;
  updatedAt: number;
}

/** One page of a check, as the checks list and the webhook report it. */
export interface CheckPage {
  url: string;
  /** new, same, changed, removed; failed when the page could not be fetched. */
  status: string;
  previousScrapeAt?: string | null;
  diff?: string;
  error?: string;
  cost: number;
}

export type CheckStatus = 'running' | 'completed' | 'failed' | 'cancelled';

export interface CheckView {
  id: string;
  monitorId: string;
  scheduledAt: number;
  startedAt: number;
  finishedAt: number | null;
  status: CheckStatus;
  /** Pages new (after the first check), changed or removed. */
  changed: number;
  costMicros: number;
  error: string | null;
  pages: CheckPage[];
}

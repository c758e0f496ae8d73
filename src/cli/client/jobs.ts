import { setTimeout as sleep } from 'node:timers/promises';
import type { Session } from './api.ts';
import { progress } from './progress.ts';

export interface Job {
  id: string;
  status: string;
  type: string;
  total: number;
  completed: number;
  cost?: number;
  error?: string;
  data: unknown[];
  next?: string;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const PAGE = 100;

/** Polls a job until it ends (progress on a terminal's stderr), then reads all its results. */
export async function waitForJob(session: Session, id: string, pollMs = 500): Promise<Job> {
  const bar = progress(`job ${id.slice(0, 8)}`);
  try {
    for (;;) {
      const job = await session.call<Job>(
        'GET',
        `/api/v1/scrape/async/job/${encodeURIComponent(id)}?limit=1`,
      );
      bar.update(job.completed, job.total);
      if (TERMINAL.has(job.status)) break;
      await sleep(pollMs);
    }
  } finally {
    bar.stop();
  }
  return readJob(session, id);
}

/** A job with every page of its results. */
export async function readJob(session: Session, id: string): Promise<Job> {
  const first = await session.call<Job>(
    'GET',
    `/api/v1/scrape/async/job/${encodeURIComponent(id)}?limit=${PAGE}`,
  );
  const data = [...first.data];
  for (let offset = PAGE; offset < first.total; offset += PAGE) {
    const page = await session.call<Job>(
      'GET',
      `/api/v1/scrape/async/job/${encodeURIComponent(id)}?offset=${offset}&limit=${PAGE}`,
    );
    data.push(...page.data);
  }
  return { ...first, data, next: undefined };
}

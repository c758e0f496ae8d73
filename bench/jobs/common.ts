import { pino } from 'pino';
import type { Jobs } from '../../src/jobs/index.ts';

export const log = pino({ level: 'silent' });
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Settings of every process the bench starts. */
export function env(
  dataDir: string,
  databaseUrl: string,
  concurrency: number,
): Record<string, string> {
  return {
    WEBDATA_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
    WEBDATA_CONTENT_WORKERS: '0',
    WEBDATA_JOB_CONCURRENCY: String(concurrency),
    WEBDATA_LOG_LEVEL: 'silent',
  };
}

/** Waits for a job to end (looking every 2 ms, so the look adds little to a job of a few hundred ms), throwing unless every item got a result; returns how many looks (one statement each) it took. */
export async function waitDone(jobs: Jobs, userId: string, id: string): Promise<number> {
  for (let looks = 1; ; looks++) {
    const job = await jobs.store.get(userId, id);
    if (job && job.status !== 'pending' && job.status !== 'processing') {
      if (job.completed !== job.total)
        throw new Error(`job ended ${job.status} with ${job.completed}/${job.total}`);
      return looks;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

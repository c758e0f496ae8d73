import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processStat, processTree } from '../../src/browser/index.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { useServer } from '../helpers/server.ts';
import { type CliProcess, spawnWorker, useCliProcesses, waitForJob } from './helpers.ts';

const site = useFixture(() => startFixtureSite());
// Set the way the container image runs: the server runs no items, and the worker gets the same
// environment (WEBDATA_WORKER=false included) and content workers of its own.
const settings = { WEBDATA_WORKER: 'false' };
const t = useServer({ backend: 'postgres', settings });
const running = useCliProcesses();

/** Within compose's and the smoke test's stop timeouts (30 s, 60 s), with room for a loaded machine. */
const STOP_WITHIN_MS = 25_000;

const startWorker = () =>
  spawnWorker(running, t, {
    ...settings,
    WEBDATA_CONTENT_WORKERS: '2',
    WEBDATA_JOB_CONCURRENCY: '4',
    // A minute-long heartbeat: only the hand-back can get the items running again in time.
    WEBDATA_JOB_HEARTBEAT_SECONDS: '60',
  });

/**
 * A worker whose browser has served an item, running a batch of slow browser pages: resolves once
 * one of them is in the browser (a page fetched twice: the plain fetch comes first).
 */
async function workerWithPagesInBrowser(tag: string): Promise<{ worker: CliProcess; url: string }> {
  const worker = await startWorker();
  const first = await t.api('POST', '/api/v1/scrape/async/batch', {
    urls: [`${site.origin}/browser/js-only?stop=${tag}`],
  });
  expect(await waitForJob(t, first.json.url, { timeoutMs: 90_000 })).toMatchObject({
    status: 'completed',
    completed: 1,
  });
  const urls = Array.from(
    { length: 4 },
    (_, i) => `${site.origin}/browser/slow-js?ms=4000&stop=${tag}-${i}`,
  );
  const created = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
  expect(created.status).toBe(202);
  const inBrowser = () => urls.some((u) => site.hits.filter((h) => u.endsWith(h)).length >= 2);
  await waitForJob(t, created.json.url, { timeoutMs: 60_000, until: inBrowser });
  return { worker, url: created.json.url };
}

/** SIGTERM, then the exit code and how long the exit took (null if not within the limit). */
async function stop(worker: CliProcess): Promise<{ code: number | null; ms: number }> {
  const stoppedAt = Date.now();
  const exited = new Promise<number | null>((r) => worker.proc.once('exit', r));
  worker.proc.kill('SIGTERM');
  const code = await Promise.race([
    exited,
    new Promise<'late'>((r) => setTimeout(() => r('late'), STOP_WITHIN_MS)),
  ]);
  return { code: code === 'late' ? null : code, ms: Date.now() - stoppedAt };
}

/** Not ended yet (a zombie has ended: only its parent has not collected it). */
const alive = (pid: number) => {
  const state = processStat(pid)?.state;
  return state !== undefined && state !== 'Z';
};

describe('a `webdata worker` stopped with SIGTERM while its browser items run', () => {
  it('exits 0 within a container stop timeout, and its items are done by the next worker', {
    timeout: 180_000,
  }, async () => {
    const { worker, url } = await workerWithPagesInBrowser('plain');
    const stopped = await stop(worker);
    expect(stopped.code, worker.output().slice(-3000)).toBe(0);
    await startWorker();
    expect(await waitForJob(t, url, { timeoutMs: 90_000 })).toMatchObject({
      status: 'completed',
      completed: 4,
    });
  });

  it('exits 0 within it too when its browsers no longer answer: they are killed, and its items are done by the next worker', {
    timeout: 180_000,
  }, async () => {
    for (const w of running.splice(0)) await w.kill9();
    const { worker, url } = await workerWithPagesInBrowser('frozen');
    const browsers = processTree(worker.proc.pid!).filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--webdata-browser='),
    );
    expect(browsers.length).toBeGreaterThan(0);
    // Stopped processes answer nothing and ignore SIGTERM: what a hung browser looks like.
    for (const pid of browsers) process.kill(pid, 'SIGSTOP');
    try {
      const stopped = await stop(worker);
      expect(stopped.code, worker.output().slice(-3000)).toBe(0);
      await waitFor(() => !browsers.some(alive), { timeoutMs: 5_000, what: 'its browsers gone' });
    } finally {
      for (const pid of browsers.filter(alive)) process.kill(pid, 'SIGKILL');
    }
    await startWorker();
    expect(await waitForJob(t, url, { timeoutMs: 90_000 })).toMatchObject({
      status: 'completed',
      completed: 4,
    });
  });
});

import { readdir, readFile, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';
import {
  allPages,
  expectGivenUpMiddleItem,
  spawnWorker,
  useCliProcesses,
  waitForJob,
} from './helpers.ts';

/** TCP ports a process listens on, read from /proc: its socket inodes matched against the kernel's listen table. */
async function listeningPorts(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(m[1]!);
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      // cols: sl local_address rem_address st ... inode (10th column)
      if (cols[3] === '0A' && inodes.has(cols[9]!))
        ports.push(parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** Session runtime folders (under the temp folder) whose owner file names this process. */
async function sessionFoldersOf(pid: number): Promise<string[]> {
  const owned: string[] = [];
  for (const name of await readdir(tmpdir())) {
    if (!name.startsWith('wd-sess-')) continue;
    const owner = await readFile(join(tmpdir(), name, 'owner'), 'utf8').catch(() => '');
    if (owner.split(' ')[0] === String(pid)) owned.push(name);
  }
  return owned;
}

const site = useFixture(() => startFixtureSite());
// The serving process runs no items: the worker process below runs them all.
const t = useServer({ backend: 'postgres', settings: { WEBDATA_WORKER: 'false' } });
const running = useCliProcesses();

const startWorker = () =>
  spawnWorker(running, t, {
    WEBDATA_JOB_CONCURRENCY: '2',
    WEBDATA_JOB_HEARTBEAT_SECONDS: '10',
    WEBDATA_BROWSER_POOL_SIZE: '1',
  });

describe('a `webdata worker` process on Postgres', () => {
  it('completes a job whose queue gave up on one item: that item fails with the reason and costs nothing', {
    timeout: 120_000,
  }, async () => {
    const urls = [
      `${site.origin}/article.html?giveup=0`,
      `${site.origin}/notes.txt?giveup=1`,
      `${site.origin}/notes.txt?giveup=2`,
    ];
    const created = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
    expect(created.status).toBe(202);
    // Handling item 1 now fails below its operation on every attempt (its stored input cannot be
    // read), as it would while the database kept failing: pg-boss retries it, then gives up.
    await t.server.database.db
      .updateTable('job_items')
      .set({ input: '{not json' })
      .where('job_id', '=', created.json.id)
      .where('idx', '=', 1)
      .execute();
    await startWorker();

    await expectGivenUpMiddleItem(t, created.json.url, 90_000);
  });

  it('runs no session manager and no egress proxy until a browser item needs one, and still runs browser items', {
    timeout: 120_000,
  }, async () => {
    const w = running[0] ?? (await startWorker());
    const pid = w.proc.pid!;
    // It has run plain items (above) yet listens on nothing and owns no session runtime folder.
    expect(await listeningPorts(pid)).toEqual([]);
    expect(await sessionFoldersOf(pid)).toEqual([]);

    const created = await t.api('POST', '/api/v1/scrape/async/batch', {
      urls: [`${site.origin}/browser/js-only?worker=1`],
    });
    const job = await waitForJob(t, created.json.url, { timeoutMs: 90_000 });
    expect(job).toMatchObject({ status: 'completed', completed: 1 });
    const { data } = await allPages(t, created.json.url, 10);
    expect(data[0].success).toBe(true);
    expect(data[0].markdown).toContain('Only a browser sees this sentence about kelp forests.');
    // The browser's pages went out through the egress proxy, started for them on loopback.
    expect((await listeningPorts(pid)).length).toBeGreaterThan(0);
    expect(await sessionFoldersOf(pid)).toEqual([]);
  });
});

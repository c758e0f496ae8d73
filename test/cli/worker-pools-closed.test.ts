import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll.ts';
import { startTestServer } from '../helpers/server.ts';

/** Node names the OS thread of every worker_threads Worker (piscina's too) `WorkerThread`. */
function workerThreads(): number {
  let n = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === 'WorkerThread') n++;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return n;
}

describe('a server stopping', () => {
  it('leaves no worker thread behind, started and stopped twice in one process', async () => {
    const before = workerThreads();
    for (let round = 1; round <= 2; round++) {
      const t = await startTestServer();
      // A caller schema is compiled on a schema worker (then refused: no LLM is configured), and
      // a path pattern on the path matcher's thread (refused: it does not compile).
      const extract = await t.api('POST', '/api/v1/extract', {
        urls: ['http://127.0.0.1:9/'],
        schema: { type: 'object', properties: { title: { type: 'string' } } },
      });
      expect(extract.status).toBe(400);
      expect(extract.json.details?.[0]?.field).toBe('schema');
      const crawl = await t.api('POST', '/api/v1/crawl', {
        url: 'http://127.0.0.1:9/',
        includePaths: ['(unclosed'],
      });
      expect(crawl.status).toBe(400);
      expect(crawl.json.details?.[0]?.field).toBe('includePaths[0]');
      expect(workerThreads()).toBeGreaterThan(before);
      await t.close();
      // Terminated threads leave the task list a moment after `terminate` resolves.
      await waitFor(() => workerThreads() === before, { timeoutMs: 5_000 }).catch(() => undefined);
      expect(workerThreads(), `worker threads after stop ${round}`).toBe(before);
    }
  }, 120_000);
});

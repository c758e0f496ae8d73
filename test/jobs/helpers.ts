import type { TestServer } from '../helpers/server.ts';

/** Polls a job until it reaches a terminal status (or the deadline), returning the last answer. */
export async function waitForJob(
  t: Pick<TestServer, 'api'>,
  url: string,
  opts: { key?: string; timeoutMs?: number; until?: (job: any) => boolean } = {},
): Promise<any> {
  const until = opts.until ?? ((job: any) => ['completed', 'failed', 'cancelled'].includes(job.status));
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    const { status, json } = await t.api('GET', url, undefined, opts.key);
    if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${JSON.stringify(json)}`);
    if (until(json)) return json;
    if (Date.now() > deadline) throw new Error(`job did not get there in time: ${JSON.stringify(json).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every page of a job's results, following `next` from the first. */
export async function allPages(t: Pick<TestServer, 'api'>, url: string, limit: number): Promise<{ pages: any[]; data: any[] }> {
  const pages: any[] = [];
  let next: string | undefined = `${url}?limit=${limit}`;
  while (next) {
    const { status, json } = await t.api('GET', next);
    if (status !== 200) throw new Error(`GET ${next} answered ${status}`);
    pages.push(json);
    next = json.next;
  }
  return { pages, data: pages.flatMap((p) => p.data) };
}

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startOpenAiResponsesServer } from '../fixtures/openai-responses-server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { extractModelAt } from '../helpers/llm-extract.ts';
import { waitFor } from '../helpers/poll.ts';
import { apiAt, freePort, TEST_KEY } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');

const scratch = useFixture(() => tempDir('webdata-survives-'));
const site = useFixture(() => startFixtureSite());
const responses = useFixture(startOpenAiResponsesServer);

/** `webdata serve` as its own process, as it is deployed: the process-level handlers are the entry's. */
const served = useFixture(async () => {
  const port = await freePort();
  const child: ChildProcess = spawn(NODE, [join(ROOT, 'src/cli/main.ts'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      WEBDATA_DATA_DIR: scratch.path,
      WEBDATA_API_KEYS: TEST_KEY,
      WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
      WEBDATA_CONTENT_WORKERS: '1',
      WEBDATA_SESSION_WARM_SPARES: '0',
      WEBDATA_BROWSER_POOL_SIZE: '1',
      ...extractModelAt(responses),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(() => log.includes('webdata listening on'), {
    timeoutMs: 60_000,
    what: () => `webdata serve to listen; its output so far: ${log}`,
  });
  return {
    base,
    api: apiAt(base),
    alive: () => child.exitCode === null && child.signalCode === null,
    log: () => log,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
});

describe('one request never ends the process', { timeout: 120_000 }, () => {
  it('webdata serve answers an `$async` schema with a 400 and keeps serving (issue 51 row 1)', async () => {
    const schema = { type: 'object', $async: true, required: ['zzz'] };
    const refused = await served.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/article.html`,
      extract: { schema },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.details[0].field).toBe('extract.schema');
    // Long enough for a rejection nobody handled to have ended the process.
    await new Promise((r) => setTimeout(r, 500));
    expect(served.alive(), served.log()).toBe(true);
    expect((await served.api('GET', '/health', undefined, null)).json.status).toBe('ok');
    const after = await served.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/article.html`,
      extract: { schema: { type: 'object', properties: { topic: { type: 'string' } } } },
    });
    expect(after.json).toMatchObject({ success: true, json: { topic: expect.any(String) } });
  });

  it('logs a rejection nobody handled and goes on, where Node would exit', async () => {
    const script = `
      import { surviveUnhandledRejections } from ${JSON.stringify(join(ROOT, 'src/cli/signals.ts'))};
      surviveUnhandledRejections({ error: (obj, msg) => console.log(msg, obj.err.message) });
      Promise.reject(new Error('nobody awaited this'));
      setTimeout(() => console.log('still running'), 200);
    `;
    const out = await new Promise<{ code: number; stdout: string }>((done) =>
      execFile(
        NODE,
        ['--input-type=module', '-e', script],
        { env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 },
        (err, stdout) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
      ),
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      'a promise was rejected with no handler; the process keeps serving nobody awaited this\nstill running\n',
    );
  });
});

import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, useServer } from '../helpers/server.ts';
import { checksAtLeast, FAST_MONITORS } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: FAST_MONITORS });

function webdata(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      join(ROOT, 'node_modules/.bin/node'),
      [join(ROOT, 'src/cli/main.ts'), ...args],
      {
        env: { PATH: process.env.PATH ?? '', WEBDATA_URL: t.base, WEBDATA_API_KEY: TEST_KEY },
        timeout: 60_000,
      },
      (err, stdout, stderr) =>
        done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it('webdata monitor creates, lists, shows checks, pauses and deletes a monitor', {
  timeout: 120_000,
}, async () => {
  const url = `${site.origin}/article.html?cli=monitor`;
  const created = await webdata([
    '--json',
    'monitor',
    'create',
    url,
    '--every',
    '2',
    '--name',
    'tides',
  ]);
  expect(created.code, created.stderr).toBe(0);
  const { monitor } = JSON.parse(created.stdout);
  expect(monitor).toMatchObject({ name: 'tides', urls: [url], schedule: { intervalSeconds: 2 } });

  await checksAtLeast(t, monitor.id, 1);
  const checks = await webdata(['monitor', 'checks', monitor.id]);
  expect(checks.stdout).toMatch(/completed {2}0 changed {2}\$0\.002/);
  expect(checks.stdout).toContain(`new  ${url}`);

  const paused = await webdata(['monitor', 'pause', monitor.id]);
  expect(paused.stdout).toContain(`${monitor.id}  paused  every 2 s`);
  const listed = await webdata(['monitor', 'list']);
  expect(listed.stdout).toContain(`${monitor.id}  paused`);

  const refused = await webdata(['monitor', 'create', url, '--every', '1']);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('schedule.intervalSeconds');

  expect((await webdata(['monitor', 'delete', monitor.id])).stdout).toContain('deleted');
  expect((await webdata(['monitor', 'get', monitor.id])).code).not.toBe(0);
});

import { expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { call, useMcpClients } from '../helpers/mcp.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import { checksAtLeast, FAST_MONITORS } from './helpers.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: FAST_MONITORS });
const clients = useMcpClients(t);

it('MCP monitor tools create, pause, read checks of and delete a monitor, scoped to the key', {
  timeout: 60_000,
}, async () => {
  const mine = await clients.http(TEST_KEY);
  const { tools } = await mine.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of [
    'monitor_create',
    'monitor_list',
    'monitor_get',
    'monitor_update',
    'monitor_checks',
    'monitor_delete',
  ])
    expect(names).toContain(name);

  const url = `${site.origin}/article.html?mcp=monitor`;
  const created = await call(mine, 'monitor_create', {
    urls: [url],
    schedule: { intervalSeconds: 2 },
  });
  expect(created.isError).toBeFalsy();
  const id = created.structuredContent.monitor.id;
  await checksAtLeast(t, id, 1);
  const checks = await call(mine, 'monitor_checks', { id });
  expect(checks.structuredContent.checks.at(-1).pages).toMatchObject([{ url, status: 'new' }]);
  const paused = await call(mine, 'monitor_update', { id, paused: true });
  expect(paused.structuredContent.monitor.status).toBe('paused');
  const bad = await call(mine, 'monitor_update', { id, schedule: { intervalSeconds: 1 } });
  expect(bad.isError).toBe(true);
  expect(bad.content[0]!.text).toContain('schedule.intervalSeconds');

  const theirs = await clients.http(TEST_KEY_2);
  expect((await call(theirs, 'monitor_get', { id })).isError).toBe(true);
  expect((await call(theirs, 'monitor_list', {})).structuredContent.monitors).toEqual([]);
  expect((await call(mine, 'monitor_delete', { id })).structuredContent).toEqual({
    success: true,
    id,
  });
});

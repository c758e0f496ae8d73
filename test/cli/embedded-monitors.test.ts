import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api-client/index.ts';
import { startEmbedded } from '../../src/cli/embedded.ts';
import { loadConfig } from '../../src/config.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { FAST_MONITORS } from '../monitors/helpers.ts';

const site = useFixture(() => startFixtureSite());
const data = useFixture(() => tempDir('webdata-embedded-monitors-'));

const settings = () => ({
  WEBDATA_DATA_DIR: data.path,
  WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
  WEBDATA_CONTENT_WORKERS: '1',
  WEBDATA_SESSION_WARM_SPARES: '0',
  ...FAST_MONITORS,
});

const monitor = async (api: ApiClient, id: string) =>
  ((await api.request('GET', `/api/v1/monitors/${id}`)).body as { monitor: any }).monitor;

describe('monitors in an embedded service', () => {
  it('a one-off command runs no check; the long-running MCP server does', async () => {
    const page = `${site.origin}/article.html?embedded=monitor`;
    const once = await startEmbedded(loadConfig(settings()), 'command');
    let id: string;
    try {
      const made = await once.api.request('POST', '/api/v1/monitors', {
        urls: [page],
        schedule: { intervalSeconds: 2 },
      });
      expect(made.status).toBe(201);
      id = (made.body as { monitor: { id: string } }).monitor.id;
      // Twenty polls' worth, and a due baseline check the whole time.
      await sleep(2_000);
      expect(await monitor(once.api, id)).toMatchObject({ runningCheck: null, checks: 0 });
      expect(site.hits).not.toContain(page.slice(site.origin.length));
    } finally {
      await once.close();
    }

    const mcp = await startEmbedded(loadConfig(settings()), 'mcp');
    try {
      await waitFor(async () => (await monitor(mcp.api, id)).checks >= 1, {
        timeoutMs: 30_000,
        what: 'the MCP server to run the due check',
      });
      expect(site.hits).toContain(page.slice(site.origin.length));
    } finally {
      await mcp.close();
    }
  }, 90_000);
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { call, textOf, useMcpClients } from '../helpers/mcp.ts';
import { TEST_KEY, useServer } from '../helpers/server.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_BROWSER_POOL_SIZE: '1' } });
const clients = useMcpClients(t);

describe('MCP over stdio (webdata mcp)', { timeout: 120_000 }, () => {
  it('talks to a running server with WEBDATA_URL and WEBDATA_API_KEY', async () => {
    const client = await clients.stdio({ WEBDATA_URL: t.base, WEBDATA_API_KEY: TEST_KEY });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('scrape');
    const res = await call(client, 'scrape', { url: `${site.origin}/article.html` });
    expect(res.structuredContent).toMatchObject({ success: true, cost: 0.002 });
    const shot = await call(client, 'screenshot', {
      url: `${site.origin}/browser/tall`,
      fullPage: false,
      width: 640,
      height: 480,
    });
    expect(shot.content.some((c) => c.type === 'image')).toBe(true);
  });

  it('refuses a wrong key over stdio as a tool error', async () => {
    const client = await clients.stdio({
      WEBDATA_URL: t.base,
      WEBDATA_API_KEY: 'wd_wrong_key_0000000000000000',
    });
    const res = await call(client, 'scrape', { url: `${site.origin}/article.html` });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain('HTTP 401');
  });

  it('runs an embedded server when neither is set', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'webdata-mcp-embedded-'));
    try {
      const client = await clients.stdio({
        WEBDATA_DATA_DIR: dataDir,
        WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
        WEBDATA_BROWSER_POOL_SIZE: '1',
        WEBDATA_SESSION_WARM_SPARES: '0',
        PORT: '1',
      });
      const res = await call(client, 'scrape', { url: `${site.origin}/article.html` });
      expect(res.structuredContent).toMatchObject({ success: true, cost: 0.002 });
      expect(textOf(res)).toContain('Twice a day the ocean pulls back');
      await client.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

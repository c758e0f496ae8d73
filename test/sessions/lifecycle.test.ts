import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SessionManager } from '../../src/sessions/index.ts';
import { openDatabase, ProfileStore, SessionStore } from '../../src/store/index.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft, upgradeStatus } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const t = useServer({
  settings: {
    WEBDATA_SESSION_IDLE_TIMEOUT_MS: '1000',
    WEBDATA_SESSION_MAX_LIFETIME_MS: '6000',
    WEBDATA_SESSION_WARM_SPARES: '0',
  },
});

describe('session lifecycle', () => {
  it('CDP traffic keeps a session alive; silence times it out and billing stops', async () => {
    const created = (
      await t.api('POST', '/api/v1/browser-sandbox/session', { width: 800, height: 600 })
    ).json;
    const browser = await chromium.connectOverCDP(created.wsUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    // Busy for twice the idle time-out: still active.
    for (let i = 0; i < 8; i++) {
      await page.goto(`${site.origin}/session/app`);
      await sleep(250);
    }
    expect(
      (await t.api('GET', `/api/v1/browser-sandbox/session/${created.sessionId}`)).json.status,
    ).toBe('active');
    await browser.close();

    const closed = await waitFor(async () => {
      const d = (await t.api('GET', `/api/v1/browser-sandbox/session/${created.sessionId}`)).json;
      return d.status === 'closed' && d;
    });
    expect(closed).toMatchObject({
      closeReason: 'timeout',
      hasStorageState: true,
      lastUrl: `${site.origin}/session/app`,
    });
    expect(closed.totalCost).toBeGreaterThan(0);
    expect(await upgradeStatus(created.wsUrl)).toBe(404);
    await sleep(1200);
    expect(
      (await t.api('GET', `/api/v1/browser-sandbox/session/${created.sessionId}`)).json.totalCost,
    ).toBe(closed.totalCost);
    const user = (await t.server.keys.list())[0]!.userId;
    const charges = (await t.server.ledger.forUser(user)).filter(
      (r) => r.ref === created.sessionId,
    );
    expect(charges).toHaveLength(1);
    expect(charges[0]!.costMicros).toBe(Math.round(closed.totalCost * 1e6));
    // Billed per started second at 2,000 micro-dollars a minute.
    expect(charges[0]!.costMicros).toBe(Math.ceil((charges[0]!.units * 2000) / 60));
  });

  it('ends a busy session at its maximum lifetime', async () => {
    const created = (await t.api('POST', '/api/v1/browser-sandbox/session', {})).json;
    const browser = await chromium.connectOverCDP(created.wsUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    const started = Date.now();
    let status = 'active';
    while (status === 'active' && Date.now() - started < 15_000) {
      await page.evaluate(() => 1).catch(() => undefined);
      await sleep(200);
      status = (await t.api('GET', `/api/v1/browser-sandbox/session/${created.sessionId}`)).json
        .status;
    }
    const details = (await t.api('GET', `/api/v1/browser-sandbox/session/${created.sessionId}`))
      .json;
    expect(details).toMatchObject({ status: 'closed', closeReason: 'timeout' });
    expect(Date.parse(details.closedAt) - Date.parse(details.createdAt)).toBeGreaterThanOrEqual(
      6000,
    );
    await browser.close();
  });

  it('closes with error, at start-up, the sessions a dead process left active', async () => {
    await t.stop();
    const database = await openDatabase({ databaseUrl: '', dataDir: t.dataDir });
    const now = Date.now();
    const user = (
      await database.db.selectFrom('api_keys').select('user_id').executeTakeFirstOrThrow()
    ).user_id;
    await new SessionStore(database.db).insert({
      id: 'left-behind',
      user_id: user,
      status: 'active',
      browser: 'chromium',
      headless: 1,
      proxy: 1,
      width: 1280,
      height: 720,
      token_hash: 'x',
      instance_url: `http://localhost:${t.port}`,
      storage_state: null,
      last_url: null,
      close_reason: null,
      created_at: now - 90_000,
      started_at: now - 90_000,
      closed_at: null,
      last_activity_at: now - 30_000,
      billed_micros: 0,
    });
    await database.close();

    await t.start();
    const details = (await t.api('GET', '/api/v1/browser-sandbox/session/left-behind')).json;
    expect(details).toMatchObject({
      status: 'closed',
      closeReason: 'error',
      closedAt: new Date(now - 30_000).toISOString(),
    });
    // Billed up to its last recorded activity: 60 s at 0.002/min.
    expect(details.totalCost).toBe(0.002);
    expect((await t.api('POST', '/api/v1/browser-sandbox/session/left-behind/resume')).status).toBe(
      409,
    );
  });
});

describe('a process that never ran sessions', () => {
  it("leaves this instance's session browsers alone when it shuts down (a `webdata worker` on the same host)", async () => {
    const created = (
      await t.api('POST', '/api/v1/browser-sandbox/session', { width: 800, height: 600 })
    ).json;
    const pids = await t.server.services.sessions.processIds(created.sessionId);
    expect(pids.length).toBeGreaterThan(0);
    // A worker builds the same services from the same settings, so its session manager has the
    // same runtime folder; it never starts it, and its shutdown must not reap what serve runs.
    const worker = new SessionManager({
      config: t.server.services.config.sessions,
      chromium: t.server.services.config.chromium,
      firefox: t.server.services.config.firefox,
      publicUrl: t.server.services.config.publicUrl,
      dataDir: t.server.services.config.dataDir,
      store: new SessionStore(t.server.database.db),
      ledger: t.server.ledger,
      profiles: new ProfileStore(t.server.database.db),
      proxyUrl: 'http://127.0.0.1:9',
    });
    expect(worker.runtimeRoot).toBe(t.server.services.sessions.runtimeRoot);
    await worker.shutdown();
    for (const pid of pids) expect(() => process.kill(pid, 0)).not.toThrow();
    const browser = await chromium.connectOverCDP(created.wsUrl);
    await browser.close();
    expect(
      (await t.api('GET', `/api/v1/browser-sandbox/session/${created.sessionId}`)).json.status,
    ).toBe('active');
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${created.sessionId}`);
  });
});

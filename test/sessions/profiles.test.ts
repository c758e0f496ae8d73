import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const t = useServer();

/** Registers the fixture's service worker and puts a record in IndexedDB, in the page. */
async function writeProfileData(): Promise<void> {
  await navigator.serviceWorker.register('/session/sw.js');
  await navigator.serviceWorker.ready;
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('shop', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('cart');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction('cart', 'readwrite');
    tx.objectStore('cart').put({ item: 'oat milk', count: 3 }, 'first');
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

/** The service worker scopes and the IndexedDB record the page's origin has. */
async function readProfileData(): Promise<{ scopes: string[]; record: unknown }> {
  const scopes = (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope);
  const names = (await indexedDB.databases()).map((d) => d.name);
  if (!names.includes('shop')) return { scopes, record: null };
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('shop', 1);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const record = await new Promise((resolve, reject) => {
    const get = db.transaction('cart').objectStore('cart').get('first');
    get.onsuccess = () => resolve(get.result ?? null);
    get.onerror = () => reject(get.error);
  });
  db.close();
  return { scopes, record };
}

describe('browser profiles', () => {
  it('are created, listed and checked by name, per key', async () => {
    const created = await t.api('POST', '/api/v1/browser-sandbox/profiles', { name: 'shop' });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ name: 'shop', savedAt: null, inUse: false });
    expect((await t.api('POST', '/api/v1/browser-sandbox/profiles', { name: 'shop' })).status).toBe(
      409,
    );
    const bad = await t.api('POST', '/api/v1/browser-sandbox/profiles', { name: '../x' });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toBe('name');
    expect((await t.api('GET', '/api/v1/browser-sandbox/profiles')).json.profiles).toEqual([
      created.json,
    ]);
    // Another key sees none of it, and cannot run a session on it.
    expect(
      (await t.api('GET', '/api/v1/browser-sandbox/profiles', undefined, TEST_KEY_2)).json,
    ).toEqual({ profiles: [] });
    expect(
      (await t.api('GET', '/api/v1/browser-sandbox/profiles/shop', undefined, TEST_KEY_2)).status,
    ).toBe(404);
    expect(
      (await t.api('DELETE', '/api/v1/browser-sandbox/profiles/shop', undefined, TEST_KEY_2))
        .status,
    ).toBe(404);
    const foreign = await t.api(
      'POST',
      '/api/v1/browser-sandbox/session',
      { profile: { name: 'shop' } },
      TEST_KEY_2,
    );
    expect(foreign.status).toBe(404);
    const badSession = await t.api('POST', '/api/v1/browser-sandbox/session', {
      profile: { name: 'shop', keep: true },
    });
    expect(badSession.status).toBe(400);
    expect(badSession.json.details[0].field).toBe('profile.keep');
  });

  it('carries IndexedDB and a service worker to the next session, one session at a time', async () => {
    const first = await t.api('POST', '/api/v1/browser-sandbox/session', {
      profile: { name: 'shop', save: true },
    });
    expect(first.status).toBe(200);
    const second = await t.api('POST', '/api/v1/browser-sandbox/session', {
      profile: { name: 'shop' },
    });
    expect(second.status).toBe(409);
    expect(second.json.error).toMatch(/in use/);
    expect((await t.api('DELETE', '/api/v1/browser-sandbox/profiles/shop')).status).toBe(409);
    expect((await t.api('GET', '/api/v1/browser-sandbox/profiles/shop')).json.inUse).toBe(true);

    const browser = await chromium.connectOverCDP(first.json.wsUrl);
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/session/app`);
    await page.evaluate(writeProfileData);
    await browser.close();
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${first.json.sessionId}`);
    const saved = (await t.api('GET', '/api/v1/browser-sandbox/profiles/shop')).json;
    expect(saved).toMatchObject({ inUse: false });
    expect(saved.savedAt).not.toBeNull();

    // A session without the profile starts empty; one with it finds what the first left.
    const plain = await t.api('POST', '/api/v1/browser-sandbox/session', {});
    const again = await t.api('POST', '/api/v1/browser-sandbox/session', {
      profile: { name: 'shop' },
    });
    expect(again.status).toBe(200);
    for (const [session, expected] of [
      [plain, { scopes: [], record: null }],
      [
        again,
        {
          scopes: [`${site.origin}/session/`],
          record: { item: 'oat milk', count: 3 },
        },
      ],
    ] as const) {
      const pptr = await puppeteer.connect({ browserWSEndpoint: session.json.wsUrl });
      const p = await pptr.newPage();
      await p.goto(`${site.origin}/session/app`);
      expect(await p.evaluate(readProfileData)).toEqual(expected);
      await pptr.disconnect();
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${session.json.sessionId}`);
    }
    // Without `save`, the profile stays as the first session left it.
    expect((await t.api('GET', '/api/v1/browser-sandbox/profiles/shop')).json).toEqual(saved);
    expect((await t.api('DELETE', '/api/v1/browser-sandbox/profiles/shop')).json).toEqual({
      success: true,
    });
    expect((await t.api('GET', '/api/v1/browser-sandbox/profiles')).json).toEqual({ profiles: [] });
    const gone = await t.api('POST', '/api/v1/browser-sandbox/session', {
      profile: { name: 'shop' },
    });
    expect(gone.status).toBe(404);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { downloadBytes } from '../fixtures/site/routes/sessions.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const MIB = 1024 * 1024;
const t = useServer({
  settings: {
    WEBDATA_SESSION_FILE_MAX_BYTES: String(MIB),
    WEBDATA_SESSION_FILES_QUOTA_BYTES: String(2.5 * MIB),
    WEBDATA_SESSION_FILES_MAX: '5',
  },
});

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

interface FileEntry {
  name: string;
  size: number;
  modifiedAt: string;
  path: string | null;
}

function filesUrl(id: string, name?: string): string {
  const base = `${t.base}/api/v1/browser-sandbox/session/${id}/files`;
  return name === undefined ? base : `${base}/${encodeURIComponent(name)}`;
}

async function upload(
  id: string,
  name: string,
  bytes: Buffer,
  opts: { key?: string; field?: string } = {},
): Promise<{ status: number; json: any }> {
  const form = new FormData();
  form.set(opts.field ?? 'file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(filesUrl(id), {
    method: 'POST',
    headers: { authorization: `Bearer ${opts.key ?? TEST_KEY}` },
    body: form,
  });
  return { status: res.status, json: await res.json() };
}

async function fetchFile(id: string, name: string, key = TEST_KEY) {
  const res = await fetch(filesUrl(id, name), { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

async function list(id: string, key = TEST_KEY): Promise<FileEntry[]> {
  const res = await t.api('GET', `/api/v1/browser-sandbox/session/${id}/files`, undefined, key);
  expect(res.status).toBe(200);
  return res.json.files;
}

describe('session files', () => {
  let sessionId: string;
  let wsUrl: string;
  const doc = randomBytes(200_000);

  it('an upload is listed and Playwright puts it into a form, which submits its bytes', async () => {
    const created = await t.api('POST', '/api/v1/browser-sandbox/session', {});
    sessionId = created.json.sessionId;
    wsUrl = created.json.wsUrl;
    const uploaded = await upload(sessionId, 'report.pdf', doc);
    expect(uploaded.status).toBe(200);
    expect(uploaded.json).toMatchObject({ name: 'report.pdf', size: doc.length });
    expect(uploaded.json.path).toMatch(/\/files\/report\.pdf$/);
    expect(await list(sessionId)).toEqual([uploaded.json]);

    const browser = await chromium.connectOverCDP(wsUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    await page.goto(`${site.origin}/session/upload`);
    await page.setInputFiles('#f', uploaded.json.path);
    await Promise.all([page.waitForURL('**/upload-echo'), page.click('#send')]);
    expect(await page.textContent('#name')).toBe('report.pdf');
    expect(await page.textContent('#size')).toBe(String(doc.length));
    expect(await page.textContent('#sha')).toBe(sha(doc));

    // Playwright itself reads the path and sends the bytes (a browser it did not start is not
    // on its machine); a raw DOM.setFileInputFiles naming a path outside the folder is refused.
    await page.goto(`${site.origin}/session/upload`);
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#f' });
    for (const outside of [
      '/etc/hostname',
      `${uploaded.json.path}/../../profile/Cookies`,
      '../tmp',
    ])
      await expect(cdp.send('DOM.setFileInputFiles', { files: [outside], nodeId })).rejects.toThrow(
        /files folder/,
      );
    await cdp.detach();
    await browser.close();
  });

  it('Puppeteer uploads by the listed path or a bare name; paths elsewhere are refused', async () => {
    const browser = await puppeteer.connect({ browserWSEndpoint: wsUrl });
    const page = await browser.newPage();
    const [file] = await list(sessionId);
    for (const name of [file!.path!, 'report.pdf']) {
      await page.goto(`${site.origin}/session/upload`);
      // Puppeteer resolves a relative name against its own working folder; the raw CDP command
      // is what carries a bare name, so send that one directly.
      if (name.startsWith('/')) await (await page.$('input'))!.uploadFile(name);
      else {
        const cdp = await page.createCDPSession();
        const { root } = await cdp.send('DOM.getDocument');
        const { nodeId } = await cdp.send('DOM.querySelector', {
          nodeId: root.nodeId,
          selector: '#f',
        });
        await cdp.send('DOM.setFileInputFiles', { files: [name], nodeId });
        await cdp.detach();
      }
      await Promise.all([page.waitForNavigation(), page.click('#send')]);
      expect(await page.$eval('#sha', (e) => e.textContent)).toBe(sha(doc));
    }
    await page.goto(`${site.origin}/session/upload`);
    await expect((await page.$('input'))!.uploadFile('/etc/hostname')).rejects.toThrow(
      /files folder/,
    );
    await browser.disconnect();
  });

  it("a page's download is listed and fetched back byte-identical", async () => {
    const expected = downloadBytes();
    const browser = await chromium.connectOverCDP(wsUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    await page.goto(`${site.origin}/session/download-page`);
    await Promise.all([page.waitForEvent('download'), page.click('#d')]);
    const downloaded = await waitFor(async () =>
      (await list(sessionId)).find((f) => f.size === expected.length),
    );
    const got = await fetchFile(sessionId, downloaded.name);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.bytes.equals(expected)).toBe(true);
    await browser.close();

    // Puppeteer sets no download behaviour of its own: the file keeps the name the site gave it.
    const pptr = await puppeteer.connect({ browserWSEndpoint: wsUrl });
    const second = await pptr.newPage();
    await second.goto(`${site.origin}/session/download-page`);
    await second.click('#d');
    const named = await waitFor(async () =>
      (await list(sessionId)).find((f) => f.name === 'report.bin'),
    );
    expect((await fetchFile(sessionId, named.name)).bytes.equals(expected)).toBe(true);
    await pptr.disconnect();
  });

  it("another key's session files are 404, bad input 400 naming the field, too large 413", async () => {
    const base = `/api/v1/browser-sandbox/session/${sessionId}/files`;
    expect((await t.api('GET', base, undefined, TEST_KEY_2)).status).toBe(404);
    expect((await upload(sessionId, 'x.txt', Buffer.from('x'), { key: TEST_KEY_2 })).status).toBe(
      404,
    );
    expect((await fetchFile(sessionId, 'report.pdf', TEST_KEY_2)).status).toBe(404);
    expect(
      (await t.api('DELETE', `${base}/${encodeURIComponent('report.pdf')}`, undefined, TEST_KEY_2))
        .status,
    ).toBe(404);
    expect((await fetchFile(sessionId, 'nothing-here')).status).toBe(404);

    const dotted = await t.api('GET', `${base}/..%2Fprofile`);
    expect(dotted.status).toBe(400);
    expect(dotted.json.details[0].field).toBe('name');
    const notMultipart = await t.api('POST', base, { file: 'x' });
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.json.details[0].field).toBe('body');
    const wrongField = await upload(sessionId, 'a.txt', Buffer.from('a'), { field: 'doc' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.json.details[0].field).toBe('file');
    const badName = await upload(sessionId, '.hidden', Buffer.from('a'));
    expect(badName.status).toBe(400);
    expect(badName.json.details[0].field).toBe('file');

    const tooBig = await upload(sessionId, 'big.bin', Buffer.alloc(MIB + 1));
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error).toMatch(/WEBDATA_SESSION_FILE_MAX_BYTES/);
    // The quota counts every file of the key: the upload, the two downloads and this one fill it.
    expect((await upload(sessionId, 'one.bin', Buffer.alloc(MIB))).status).toBe(200);
    const overQuota = await upload(sessionId, 'two.bin', Buffer.alloc(MIB));
    expect(overQuota.status).toBe(413);
    expect(overQuota.json.error).toMatch(/WEBDATA_SESSION_FILES_QUOTA_BYTES/);
    expect((await list(sessionId)).map((f) => f.name)).not.toContain('two.bin');
    expect((await upload(sessionId, 'tiny.txt', Buffer.from('t'))).status).toBe(200);
    const full = await upload(sessionId, 'tiny2.txt', Buffer.from('t'));
    expect(full.status).toBe(409);
    expect(full.json.error).toMatch(/WEBDATA_SESSION_FILES_MAX/);
    expect((await t.api('DELETE', `${base}/one.bin`)).json).toEqual({ success: true });
    expect((await list(sessionId)).map((f) => f.name)).not.toContain('one.bin');
  });

  it('files go with the saved state at close and come back on resume', async () => {
    const before = await list(sessionId);
    expect((await t.api('DELETE', `/api/v1/browser-sandbox/session/${sessionId}`)).status).toBe(
      200,
    );
    const closed = await list(sessionId);
    expect(closed.map(({ name, size }) => ({ name, size }))).toEqual(
      before.map(({ name, size }) => ({ name, size })),
    );
    expect(closed.every((f) => f.path === null)).toBe(true);
    expect((await fetchFile(sessionId, 'report.pdf')).bytes.equals(doc)).toBe(true);

    const resumed = await t.api('POST', `/api/v1/browser-sandbox/session/${sessionId}/resume`);
    expect(resumed.status).toBe(200);
    const [file] = (await list(sessionId)).filter((f) => f.name === 'report.pdf');
    expect(file!.path).toMatch(/\/files\/report\.pdf$/);
    const browser = await puppeteer.connect({ browserWSEndpoint: resumed.json.wsUrl });
    const page = await browser.newPage();
    await page.goto(`${site.origin}/session/upload`);
    await (await page.$('input'))!.uploadFile(file!.path!);
    await Promise.all([page.waitForNavigation(), page.click('#send')]);
    expect(await page.$eval('#sha', (e) => e.textContent)).toBe(sha(doc));
    await browser.close();
  });
});

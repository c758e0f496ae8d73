import { createServer, request } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../../src/acquire/index.ts';
import { type FixtureSite, startFixtureSite } from '../fixtures/site/server.ts';

let site: FixtureSite;
let proxy: EgressProxy;
let browser: Browser;

beforeAll(async () => {
  site = await startFixtureSite({
    '/plain.txt': (_req, res) =>
      void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain'),
    '/leaky.html': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><p id="t">page</p>
        <img src="http://169.254.169.254/latest/meta-data/pixel.png">
        <script>fetch('http://[fe80::1]/x').catch(() => { document.getElementById('t').dataset.blocked = 'yes'; });</script>
      </body></html>`);
    },
  });
  proxy = await startEgressProxy({ allowPrivate: true });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium-headless-shell',
    args: [
      `--proxy-server=${proxy.url}`,
      '--proxy-bypass-list=<-loopback>',
      '--disable-background-networking',
      '--no-sandbox',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await site?.close();
});

describe('egress proxy in front of a real browser', () => {
  it('answers an absolute-form https:// request with 502 and keeps serving', async () => {
    const send = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: proxy.port, path }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const https = await send(`https://127.0.0.1:${new URL(site.origin).port}/plain.txt`);
    expect(https.status).toBe(502);
    expect(https.body).toMatch(/CONNECT/);
    expect(await send(`${site.origin}/plain.txt`)).toEqual({ status: 200, body: 'plain' });
  });

  it('does not write socket errors into the page when a destination cannot be reached', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const page = await browser.newPage();
    try {
      const res = await page.goto(`http://127.0.0.1:${closedPort}/`);
      expect(res?.status()).toBe(502);
      const body = await res!.text();
      expect(body).toBe('the destination could not be reached');
      expect(body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|\d{4,5}/);
    } finally {
      await page.close();
    }
  });

  it('lets allowed pages through and refuses forbidden subresources and fetches', async () => {
    const page = await browser.newPage();
    // The proxy answers a refused plain-HTTP request with 403 and its reason; the page never sees
    // the forbidden host's bytes either way.
    const refusedImages: string[] = [];
    page.on('requestfailed', (r) => refusedImages.push(r.url()));
    page.on('response', (r) => {
      if (r.status() === 403 && r.headers()['x-webdata-blocked']) refusedImages.push(r.url());
    });
    const res = await page.goto(`${site.origin}/leaky.html`);
    expect(res?.status()).toBe(200);
    await page.waitForSelector('#t[data-blocked="yes"]');
    expect(refusedImages.some((u) => u.startsWith('http://169.254.169.254/'))).toBe(true);
    expect(proxy.refusals().some((m) => m.includes('169.254.169.254'))).toBe(true);
    expect(proxy.refusals().some((m) => m.includes('fe80::1'))).toBe(true);
    await page.close();
  });

  it('refuses a loopback page when private networks are closed', async () => {
    const closedProxy = await startEgressProxy({ allowPrivate: false });
    const b = await chromium.launch({
      executablePath: '/usr/bin/chromium-headless-shell',
      args: [
        `--proxy-server=${closedProxy.url}`,
        '--proxy-bypass-list=<-loopback>',
        '--disable-background-networking',
        '--no-sandbox',
      ],
    });
    try {
      const page = await b.newPage();
      const res = await page.goto(`${site.origin}/article.html`).catch((e: Error) => e);
      const status = res instanceof Error ? 0 : res?.status();
      expect(status === 0 || status === 403).toBe(true);
      expect(site.hits.filter((h) => h === '/article.html')).toHaveLength(0);
      expect(closedProxy.refusals().some((m) => m.includes('loopback'))).toBe(true);
    } finally {
      await b.close();
      await closedProxy.close();
    }
  });
});

describe('egress lanes', () => {
  it('keeps each lane’s refusals to itself and cuts a TLS tunnel past the lane’s byte budget', async () => {
    // Stands in for a TLS server that never stops sending: bytes through a CONNECT tunnel.
    let sent = 0;
    const stream = createTcpServer((socket) => {
      socket.on('error', () => undefined);
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const more = () => {
        while (!socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', more);
        }
      };
      more();
    });
    await new Promise<void>((resolve) => stream.listen(0, '127.0.0.1', () => resolve()));
    const streamPort = (stream.address() as AddressInfo).port;
    const laned = await startEgressProxy({ allowPrivate: true }, new Map(), {
      maxResponseBytes: 1024 * 1024,
      maxLaneBytes: 512 * 1024,
    });
    try {
      const one = await laned.openLane();
      const two = await laned.openLane();
      expect(one.url).not.toBe(two.url);
      const received = await new Promise<number>((resolve, reject) => {
        const { port } = new URL(one.url);
        const client = connect(Number(port), '127.0.0.1', () =>
          client.write(
            `CONNECT 127.0.0.1:${streamPort} HTTP/1.1\r\nhost: 127.0.0.1:${streamPort}\r\n\r\n`,
          ),
        );
        let n = 0;
        client.on('data', (c) => (n += c.length));
        client.on('error', reject);
        client.on('close', () => resolve(n));
      });
      expect(received).toBeLessThan(512 * 1024 + 256 * 1024);
      expect(one.refusals()).toEqual([
        'the page loaded more than 524288 bytes; its requests were stopped',
      ]);
      expect(two.refusals()).toEqual([]);
      // A spent lane refuses what comes next; the other lane is untouched.
      const again = await new Promise<string>((resolve) => {
        const client = connect(Number(new URL(one.url).port), '127.0.0.1', () =>
          client.write(`CONNECT 127.0.0.1:${streamPort} HTTP/1.1\r\n\r\n`),
        );
        let text = '';
        client.on('data', (c) => (text += c));
        client.on('close', () => resolve(text));
      });
      expect(again).toMatch(/^HTTP\/1\.1 403 /);
      expect(two.refusals()).toEqual([]);
      await one.close();
      await two.close();
    } finally {
      await laned.close();
      await new Promise<void>((resolve) => stream.close(() => resolve()));
    }
    expect(sent).toBeGreaterThan(0);
  });
});

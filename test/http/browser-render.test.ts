import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { sendHtml } from '../fixtures/site/respond.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

expectNoBrowsersLeft();
const scratch = useFixture(() => tempDir('webdata-render-'));
const site = useFixture(() =>
  startFixtureSite({
    // An element that never holds still: Playwright waits for it to be stable until its time-out,
    // and its error carries the call log of every check it made.
    '/browser/restless': (_req, res) => {
      sendHtml(
        res,
        '<!doctype html><title>Restless</title><style>@keyframes drift{from{transform:translateX(0)}to{transform:translateX(300px)}}' +
          '#restless{width:100px;height:100px;background:#c33;animation:drift .4s linear infinite alternate}</style>' +
          '<p>A box that keeps moving.</p><div id="restless"></div>',
      );
    },
  }),
);
const t = useServer({
  settings: { WEBDATA_BROWSER_POOL_SIZE: '1', WEBDATA_PUBLIC_URL: 'http://files.test.invalid' },
});

/** Downloads a public artifact URL from the test server (the public base is not resolvable here). */
async function download(
  url: string,
): Promise<{ status: number; type: string | null; body: Buffer }> {
  const path = new URL(url).pathname;
  const res = await fetch(`${t.base}${path}`);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

/** Page size in points, rounded: Chromium prints A4 as 595.92 x 842.88 (whole CSS pixels). */
function pdfInfo(pdf: Buffer): { pageSize: string; text: string } {
  const file = join(scratch.path, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  const [, w, h] = info.match(/^Page size:\s+([\d.]+) x ([\d.]+) pts/m)!;
  return { pageSize: `${Math.floor(Number(w))} x ${Math.floor(Number(h))}`, text };
}

describe('POST /v1/scrape/sequence', () => {
  it('captures a breakpoint per scrape step through a form, its results and back', async () => {
    const { status, json } = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/browser/form`,
      extractMetadata: true,
      steps: [
        { type: 'scrape' },
        { type: 'type', selector: '#q', text: 'sea stars' },
        { type: 'press', key: 'Enter' },
        { type: 'scrape' },
        { type: 'goBack' },
        { type: 'navigate', url: `${site.origin}/browser/second` },
        { type: 'scrape' },
      ],
    });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.method).toBe('browser');
    expect(json.totalBreakpoints).toBe(3);
    expect(json.completedBreakpoints).toBe(3);
    expect(json.data.map((b: { stepIndex: number }) => b.stepIndex)).toEqual([0, 3, 6]);
    expect(json.data[0].url).toBe(`${site.origin}/browser/form`);
    expect(json.data[0].markdown).toContain('Type a word and press Enter');
    expect(json.data[1].url).toBe(`${site.origin}/browser/results?q=sea+stars`);
    expect(json.data[1].markdown).toContain('Three records of rock pools');
    expect(json.data[1].metadata.title).toBe('Results');
    expect(json.data[2].markdown).toContain('Reached by a navigate step.');
    expect(json.cost).toBe(0.006);
    expect(json.totalTimeMs).toBeGreaterThan(0);
    expect(json.error).toBeUndefined();
  });

  it('goes back to the form page', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/browser/form`,
      steps: [
        { type: 'type', selector: '#q', text: 'kelp' },
        { type: 'press', key: 'Enter' },
        { type: 'goBack' },
        { type: 'scrape' },
      ],
    });
    expect(json.success).toBe(true);
    expect(json.data[0].url).toBe(`${site.origin}/browser/form`);
    expect(json.data[0].markdown).toContain('Type a word and press Enter');
  });

  it('keeps breakpoints captured before a failing step and charges only for those', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/browser/js-only`,
      type: 'html',
      steps: [
        { type: 'scrape' },
        { type: 'waitForSelector', selector: '#never-there', timeout: 400 },
        { type: 'scrape' },
      ],
    });
    expect(json.success).toBe(false);
    expect(json.failedAtStepIndex).toBe(1);
    expect(json.error).toMatch(
      /^steps\[1\] \(waitForSelector\) failed: no element matched "#never-there"/,
    );
    expect(json.totalBreakpoints).toBe(2);
    expect(json.completedBreakpoints).toBe(1);
    expect(json.data[0].html).toContain('kelp forests');
    expect(json.cost).toBe(0.002);
  });

  it('runs the whole sequence in browser-stealth when the start page turns the headless browser away', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/browser/bot-check`,
      steps: [{ type: 'scrape' }],
    });
    expect(json.success).toBe(true);
    expect(json.method).toBe('browser-stealth');
    expect(json.data[0].markdown).toContain('The members area lists every tide pool survey');
  });

  it('fails at step 0 when the start page cannot be opened, at no cost', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/browser/always-blocked`,
      steps: [{ type: 'scrape' }],
    });
    expect(json.success).toBe(false);
    expect(json.failedAtStepIndex).toBe(0);
    expect(json.completedBreakpoints).toBe(0);
    expect(json.data).toEqual([]);
    expect(json.cost).toBe(0);
    expect(json.error).toMatch(/^opening startUrl failed: .*captcha wall/);
  });

  it('validates steps: at least one, known kinds, waitForSelector at most 30 s', async () => {
    const empty = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/`,
      steps: [],
    });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatch(/^steps/);
    const long = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/`,
      steps: [{ type: 'waitForSelector', selector: 'p', timeout: 60_000 }],
    });
    expect(long.status).toBe(400);
    const start = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: 'javascript:alert(1)',
      steps: [{ type: 'scrape' }],
    });
    expect(start.status).toBe(400);
    expect(start.json.error).toMatch(/^startUrl/);
  });
});

describe('POST /v1/screenshot', () => {
  it('captures the full page, taller than the viewport, as a public PNG', async () => {
    const { json } = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/browser/tall`,
      width: 800,
      height: 600,
    });
    expect(json.success).toBe(true);
    expect(json.cost).toBe(0.003);
    expect(json.sourceUrl).toBe(`${site.origin}/browser/tall`);
    expect(json.url).toMatch(
      /^http:\/\/files\.test\.invalid\/files\/[A-Za-z0-9_-]{32}\/screenshot\.png$/,
    );
    const file = await download(json.url);
    expect(file.status).toBe(200);
    expect(file.type).toBe('image/png');
    const png = PNG.sync.read(file.body);
    expect(png.width).toBe(800);
    expect(png.height).toBeGreaterThan(3000);
    expect({ width: json.width, height: json.height }).toEqual({
      width: png.width,
      height: png.height,
    });
  });

  it('captures the viewport only when fullPage is false, and one element by selector', async () => {
    const viewport = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/browser/tall`,
      fullPage: false,
      width: 1024,
      height: 700,
    });
    const vp = PNG.sync.read((await download(viewport.json.url)).body);
    expect([vp.width, vp.height]).toEqual([1024, 700]);
    const element = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/browser/tall`,
      selector: '#box',
      width: 1024,
      height: 700,
    });
    const el = PNG.sync.read((await download(element.json.url)).body);
    expect([el.width, el.height]).toEqual([300, 150]);
    expect([element.json.width, element.json.height]).toEqual([300, 150]);
    // The box is #00aa77: the centre pixel is the element, not the page around it.
    const i = (75 * el.width + 150) * 4;
    expect([el.data[i], el.data[i + 1], el.data[i + 2]]).toEqual([0x00, 0xaa, 0x77]);
  });

  it('runs actions first and validates the viewport', async () => {
    const { json } = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/browser/form`,
      fullPage: false,
      width: 320,
      height: 240,
      actions: [{ type: 'navigate', url: `${site.origin}/browser/second` }],
    });
    expect(json.success).toBe(true);
    expect([json.width, json.height]).toEqual([320, 240]);
    const small = await t.api('POST', '/api/v1/screenshot', { url: `${site.origin}/`, width: 100 });
    expect(small.status).toBe(400);
    expect(small.json.error).toMatch(/^width/);
    const tall = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/`,
      height: 5000,
    });
    expect(tall.status).toBe(400);
  });

  it("answers a browser failure without Playwright's call log or any internals", async () => {
    const { json } = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/browser/restless`,
      selector: '#restless',
    });
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.error).toMatch(/Timeout [\d.]+ms exceeded/);
    expect(json.error).not.toMatch(/call log|waiting for|locator resolved|stable|\n/i);
  });

  it('fails a page that answers with an HTTP error, at no cost', async () => {
    const { json } = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/status/404`,
    });
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.error).toBe('the page answered HTTP 404');
  });

  it('fails at no cost when the selector matches nothing visible', async () => {
    const { json } = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/browser/second`,
      selector: '#missing',
      waitFor: 10,
    });
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.url).toBeUndefined();
    expect(json.error).toMatch(/selector "#missing" matched no element/);
  });
});

describe('POST /v1/pdf/html and /v1/pdf/url', () => {
  it('prints HTML on A4, names the file after the title and refuses forbidden subresources', async () => {
    const html =
      '<html><body><h1>Harbour report</h1><p>Seals counted: 42.</p><img src="http://169.254.169.254/latest/meta-data/logo.png"></body></html>';
    const { json } = await t.api('POST', '/api/v1/pdf/html', {
      html,
      title: 'Harbour Report 2026',
    });
    expect(json.success).toBe(true);
    expect(json.cost).toBe(0.003);
    expect(json.durationMs).toBeGreaterThan(0);
    expect(json.url).toMatch(/\/files\/[A-Za-z0-9_-]{32}\/Harbour-Report-2026\.pdf$/);
    const file = await download(json.url);
    expect(file.type).toBe('application/pdf');
    const pdf = pdfInfo(file.body);
    expect(pdf.pageSize).toBe('595 x 842');
    expect(pdf.text).toContain('Harbour report');
    expect(pdf.text).toContain('Seals counted: 42.');
    expect(
      t.server.services.browser.proxy.refusals().some((m) => m.includes('169.254.169.254')),
    ).toBe(true);
  });

  it('sends no WebRTC traffic around the egress proxy', async () => {
    const udp = createSocket('udp4');
    let packets = 0;
    udp.on('message', () => packets++);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', () => resolve()));
    try {
      // ICE gathering would send STUN over UDP straight to this port; the slow image keeps the page loading meanwhile.
      const html = `<p>rtc</p><script>
        const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udp.address().port}' }] });
        pc.createDataChannel('x');
        pc.createOffer().then((o) => pc.setLocalDescription(o));
      </script><img src="${site.origin}/slow?ms=1500">`;
      expect((await t.api('POST', '/api/v1/pdf/html', { html })).json.success).toBe(true);
      expect(packets).toBe(0);
    } finally {
      udp.close();
    }
  });

  it('prints a URL in landscape Letter with margins', async () => {
    const { json } = await t.api('POST', '/api/v1/pdf/url', {
      url: `${site.origin}/browser/print`,
      pageSize: 'Letter',
      landscape: true,
      margin: { top: '10mm', left: 20 },
    });
    expect(json.success).toBe(true);
    const pdf = pdfInfo((await download(json.url)).body);
    expect(pdf.pageSize).toBe('792 x 612');
    expect(pdf.text).toContain('Quarterly tide pool census');
    const a4 = await t.api('POST', '/api/v1/pdf/url', {
      url: `${site.origin}/browser/print`,
      landscape: true,
    });
    expect(pdfInfo((await download(a4.json.url)).body).pageSize).toBe('842 x 595');
  });

  it('reports a navigation time-out as success false with durationMs, at no cost', async () => {
    const { status, json } = await t.api('POST', '/api/v1/pdf/url', {
      url: `${site.origin}/slow?ms=10000`,
      timeoutMs: 1000,
    });
    expect(status).toBe(200);
    expect(json.success).toBe(false);
    expect(json.cost).toBe(0);
    expect(json.error).toMatch(/timed out after 1000 ms/);
    expect(json.durationMs).toBeGreaterThanOrEqual(1000);
  });

  it('validates timeoutMs and pageSize', async () => {
    expect(
      (await t.api('POST', '/api/v1/pdf/html', { html: '<p>x</p>', timeoutMs: 10 })).json.error,
    ).toMatch(/^timeoutMs/);
    expect(
      (await t.api('POST', '/api/v1/pdf/html', { html: '<p>x</p>', pageSize: 'A3' })).status,
    ).toBe(400);
  });
});

describe('GET /files', () => {
  it('serves without a key but 404s unknown or malformed names', async () => {
    expect((await fetch(`${t.base}/files/${'a'.repeat(32)}/screenshot.png`)).status).toBe(404);
    expect((await fetch(`${t.base}/files/..%2f..%2fetc/passwd`)).status).toBe(404);
  });
});

import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startGeoProxyProvider } from '../fixtures/geo-proxy-provider.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { startTestServer, useServer } from '../helpers/server.ts';
import { waitForJob } from '../jobs/helpers.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const provider = useFixture(() => startGeoProxyProvider(['US', 'DE', 'NL']));
/** us and de have their own exits; `*` (every other country, and sessions) exits in NL. */
const t = useServer({
  settings: () => ({
    WEBDATA_PROXY_URLS: `us=${provider.urls.US},DE=${provider.urls.DE},*=${provider.urls.NL}`,
    WEBDATA_BROWSER_POOL_SIZE: '1',
    // A name that resolves to the metadata address, as a rebinding attacker's would.
    WEBDATA_TEST_RESOLVE: 'metadata-alias.test=169.254.169.254',
  }),
});
/** Only us is configured, no default, with a password the provider does not accept. */
const usOnly = useServer({
  settings: () => {
    const wrong = new URL(provider.urls.US!);
    wrong.password = 'not-the-password';
    return { WEBDATA_PROXY_URLS: `us=${wrong.href}` };
  },
});

/** Log entries of the provider whose target contains `fragment`, as `COUNTRY METHOD`. */
const exits = (fragment: string) =>
  provider.log.filter((e) => e.target.includes(fragment)).map((e) => `${e.country} ${e.method}`);

/** A request the US-only server refuses with 400 naming `field`; its answer, for what else it says. */
async function expectRefusedField(path: string, body: unknown, field: string): Promise<any> {
  const res = await usOnly.api('POST', path, body);
  expect(res.status, path).toBe(400);
  expect(res.json.details[0].field).toBe(field);
  return res.json;
}

describe('geo proxy on scrape over HTTP', () => {
  it('sends a single scrape through the country’s proxy, and one without proxy direct', async () => {
    const via = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/geo/where?case=single`,
      proxy: { country: 'us' },
    });
    expect(via.status).toBe(200);
    expect(via.json.success).toBe(true);
    expect(via.json.markdown).toContain('Request seen from exit US by the fixture site.');
    expect(via.json.cost).toBe(0.002);
    expect(exits('case=single')).toEqual(['US GET']);

    const direct = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/geo/where?case=direct`,
    });
    expect(direct.json.markdown).toContain('Request seen from exit direct by the fixture site.');
    expect(exits('case=direct')).toEqual([]);
    expect(site.hits).toContain('/geo/where?case=direct');
  });

  it('gives each batch item its own country, the batch’s proxy to the rest, and `*` to unlisted countries', async () => {
    const { status, json } = await t.api('POST', '/api/v1/scrape/batch', {
      proxy: { country: 'de' },
      urls: [
        `${site.origin}/geo/where?case=batch0`,
        { url: `${site.origin}/geo/where?case=batch1`, proxy: { country: 'US' } },
        { url: `${site.origin}/geo/where?case=batch2`, proxy: { country: 'fr' } },
      ],
    });
    expect(status).toBe(200);
    expect(json.successful).toBe(3);
    expect(
      json.results.map((r: { markdown: string }) => /exit (\w+)/.exec(r.markdown)?.[1]),
    ).toEqual(['DE', 'US', 'NL']);
    expect([exits('case=batch0'), exits('case=batch1'), exits('case=batch2')]).toEqual([
      ['DE GET'],
      ['US GET'],
      ['NL GET'],
    ]);
  });

  it('tunnels https:// with CONNECT through the proxy', async () => {
    // The fixture site speaks plain HTTP, so the TLS handshake inside the tunnel fails; what
    // counts is that the tunnel was asked of the US exit.
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `https://localhost:${site.port}/geo/where`,
      proxy: { country: 'us' },
    });
    expect(json.success).toBe(false);
    expect(exits(`localhost:${site.port}`)).toEqual(['US CONNECT']);
  });
});

describe('the SSRF guard in front of the upstream proxy', () => {
  it('refuses a metadata address, a name resolving to one, and a redirect to one, before the proxy sees them', async () => {
    const cases = [
      `http://169.254.169.254/latest/meta-data/`,
      `https://169.254.169.254/latest/meta-data/`,
      `http://metadata-alias.test/latest/meta-data/`,
      `${site.origin}/geo/to-metadata`,
    ];
    for (const url of cases) {
      const { json } = await t.api('POST', '/api/v1/scrape/single', {
        url,
        proxy: { country: 'us' },
      });
      expect(json.success, url).toBe(false);
      expect(json.cost).toBe(0);
      expect(json.error, url).toMatch(/169\.254\.169\.254|metadata/);
    }
    expect(exits('/geo/to-metadata')).toEqual(['US GET']);
    expect(provider.log.filter((e) => /169\.254|metadata-alias/.test(e.target))).toEqual([]);
  });

  it('refuses a browser redirect to a metadata address through the proxy', async () => {
    const { json } = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/geo/to-metadata?case=shot`,
      proxy: { country: 'de' },
    });
    expect(json.success).toBe(false);
    expect(json.error).toMatch(/169\.254\.169\.254/);
    expect(exits('case=shot')).toEqual(['DE GET']);
    expect(provider.log.filter((e) => e.target.includes('169.254'))).toEqual([]);
  });
});

describe('geo proxy in the browser', () => {
  it('runs a browser scrape with actions through the proxy', async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/geo/where?case=actions`,
      proxy: { country: 'de' },
      actions: [{ type: 'click', selector: '#reveal' }],
    });
    expect(json.success).toBe(true);
    expect(json.markdown).toContain('Revealed after a click at exit DE.');
    expect(exits('case=actions')).toEqual(['DE GET']);
  });

  it('runs a sequence through the proxy, and a sequence without one direct on the same pool', async () => {
    const steps = [{ type: 'scrape' }, { type: 'click', selector: '#reveal' }, { type: 'scrape' }];
    const via = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/geo/where?case=seq`,
      steps,
      proxy: { country: 'us' },
    });
    expect(via.json.success).toBe(true);
    expect(via.json.data[0].markdown).toContain('exit US');
    expect(via.json.data[1].markdown).toContain('Revealed after a click at exit US.');
    expect(exits('case=seq')).toEqual(['US GET']);

    const direct = await t.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/geo/where?case=seqdirect`,
      steps: [{ type: 'scrape' }],
    });
    expect(direct.json.data[0].markdown).toContain('exit direct');
    expect(exits('case=seqdirect')).toEqual([]);
  });

  it('takes a screenshot through the proxy', async () => {
    const { json } = await t.api('POST', '/api/v1/screenshot', {
      url: `${site.origin}/geo/where?case=png`,
      proxy: { country: 'us' },
      width: 640,
      height: 480,
      fullPage: false,
    });
    expect(json.success).toBe(true);
    expect(json.width).toBe(640);
    expect(exits('case=png')).toEqual(['US GET']);
  });
});

describe('geo proxy on async jobs', () => {
  it('runs async scrapes and sequences through the proxy; a sequence batch’s proxy fills in for sequences without one', async () => {
    const single = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/geo/where?case=async-single`,
      proxy: { country: 'de' },
    });
    expect(single.status).toBe(202);
    const batch = await t.api('POST', '/api/v1/scrape/async/batch', {
      proxy: { country: 'us' },
      urls: [
        `${site.origin}/geo/where?case=async-b0`,
        { url: `${site.origin}/geo/where?case=async-b1`, proxy: { country: 'de' } },
      ],
    });
    const sequences = await t.api('POST', '/api/v1/scrape/async/sequence/batch', {
      proxy: { country: 'us' },
      sequences: [
        { startUrl: `${site.origin}/geo/where?case=async-s0`, steps: [{ type: 'scrape' }] },
        {
          startUrl: `${site.origin}/geo/where?case=async-s1`,
          steps: [{ type: 'scrape' }],
          proxy: { country: 'de' },
        },
      ],
    });
    expect(sequences.status).toBe(202);

    const one = await waitForJob(t, single.json.url, { timeoutMs: 40_000 });
    expect(one.data[0].markdown).toContain('exit DE');
    const two = await waitForJob(t, batch.json.url, { timeoutMs: 40_000 });
    expect(two.data.map((r: { markdown: string }) => /exit (\w+)/.exec(r.markdown)?.[1])).toEqual([
      'US',
      'DE',
    ]);
    const three = await waitForJob(t, sequences.json.url, { timeoutMs: 40_000 });
    expect(
      three.data.map(
        (r: { data: Array<{ markdown: string }> }) => /exit (\w+)/.exec(r.data[0]!.markdown)?.[1],
      ),
    ).toEqual(['US', 'DE']);
    expect(
      ['async-single', 'async-b0', 'async-b1', 'async-s0', 'async-s1'].map((c) =>
        exits(`case=${c}`),
      ),
    ).toEqual([['DE GET'], ['US GET'], ['DE GET'], ['US GET'], ['DE GET']]);
  });

  it('refuses an async start whose country has no proxy, naming the field', async () => {
    await expectRefusedField(
      '/api/v1/scrape/async/single',
      {
        url: `${site.origin}/geo/where`,
        proxy: { country: 'fr' },
      },
      'proxy.country',
    );
    await expectRefusedField(
      '/api/v1/scrape/async/sequence/batch',
      {
        proxy: { country: 'fr' },
        sequences: [{ startUrl: `${site.origin}/geo/where`, steps: [{ type: 'scrape' }] }],
      },
      'proxy.country',
    );
  });
});

describe('geo proxy on browser sessions', () => {
  it('a session goes through the `*` proxy by default, and direct with proxy false', async () => {
    const created = await t.api('POST', '/api/v1/browser-sandbox/session', {});
    expect(created.status).toBe(200);
    const browser = await chromium.connectOverCDP(created.json.wsUrl);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${site.origin}/geo/where?case=session`);
      expect(await page.textContent('#exit')).toBe(
        'Request seen from exit NL by the fixture site.',
      );
      const metadata = await page.goto('http://169.254.169.254/latest/meta-data/');
      expect(metadata?.headers()['x-webdata-blocked']).toBe('1');
    } finally {
      await browser.close();
    }
    expect(exits('case=session')).toEqual(['NL GET']);
    expect(provider.log.filter((e) => e.target.includes('169.254'))).toEqual([]);
    const details = await t.api('GET', `/api/v1/browser-sandbox/session/${created.json.sessionId}`);
    expect(details.json.proxy).toBe(true);
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${created.json.sessionId}`);

    const plain = await t.api('POST', '/api/v1/browser-sandbox/session', { proxy: false });
    const direct = await chromium.connectOverCDP(plain.json.wsUrl);
    try {
      const page = direct.contexts()[0]!.pages()[0] ?? (await direct.contexts()[0]!.newPage());
      await page.goto(`${site.origin}/geo/where?case=nosession-proxy`);
      expect(await page.textContent('#exit')).toBe(
        'Request seen from exit direct by the fixture site.',
      );
    } finally {
      await direct.close();
    }
    expect(
      (await t.api('GET', `/api/v1/browser-sandbox/session/${plain.json.sessionId}`)).json.proxy,
    ).toBe(false);
    await t.api('DELETE', `/api/v1/browser-sandbox/session/${plain.json.sessionId}`);
  });
});

describe('countries without a proxy', () => {
  it('answers 400 naming proxy.country and the configured countries, on every endpoint', async () => {
    const single = await expectRefusedField(
      '/api/v1/scrape/single',
      {
        url: `${site.origin}/geo/where`,
        proxy: { country: 'fr' },
      },
      'proxy.country',
    );
    expect(single.error).toBe(
      'proxy.country: no proxy is configured for "fr"; configured countries: us',
    );

    await expectRefusedField(
      '/api/v1/scrape/batch',
      {
        urls: [
          `${site.origin}/geo/where`,
          { url: `${site.origin}/geo/where`, proxy: { country: 'de' } },
        ],
      },
      'urls[1].proxy.country',
    );

    const sequence = await usOnly.api('POST', '/api/v1/scrape/sequence', {
      startUrl: `${site.origin}/geo/where`,
      steps: [{ type: 'scrape' }],
      proxy: { country: 'zz' },
    });
    expect(sequence.status).toBe(400);
    expect(sequence.json.error).toBe(
      'proxy.country: "zz" is not an ISO 3166-1 alpha-2 country code',
    );

    await expectRefusedField(
      '/api/v1/screenshot',
      {
        url: `${site.origin}/geo/where`,
        proxy: { country: 'jp' },
      },
      'proxy.country',
    );

    await expectRefusedField('/api/v1/browser-sandbox/session', { proxy: true }, 'proxy');
  });

  it('fails a fetch whose upstream proxy refuses the credentials, at no cost and without going direct', async () => {
    const before = site.hits.length;
    for (const url of [
      `${site.origin}/geo/where?case=refused`,
      `https://localhost:${site.port}/geo/where`,
    ]) {
      const { json } = await usOnly.api('POST', '/api/v1/scrape/single', {
        url,
        proxy: { country: 'us' },
      });
      expect(json.success, url).toBe(false);
      expect(json.cost).toBe(0);
      expect(json.error, url).toMatch(/407/);
    }
    expect(site.hits.length).toBe(before);
  });

  it('says none is configured when WEBDATA_PROXY_URLS is empty', async () => {
    const none = await startTestServer();
    try {
      const { status, json } = await none.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/geo/where`,
        proxy: { country: 'us' },
      });
      expect(status).toBe(400);
      expect(json.error).toBe(
        'proxy.country: no geo proxy is configured on this server (WEBDATA_PROXY_URLS is empty)',
      );
    } finally {
      await none.close();
    }
  });
});

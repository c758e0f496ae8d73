import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { type TestServer, useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const open = useServer();
const closed = useServer({
  settings: {
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'false',
    WEBDATA_TEST_RESOLVE: 'innocent.example=127.0.0.1',
  },
});

const scrapeOn = (t: TestServer, url: string) =>
  t.api('POST', '/api/v1/scrape/single', { url }).then((r) => r.json);

/** Each URL is refused before anything is fetched, with an error matching `why`, and costs nothing. */
async function expectRefused(t: TestServer, urls: string[], why: RegExp): Promise<void> {
  for (const url of urls) {
    const json = await scrapeOn(t, url);
    expect(json.success, url).toBe(false);
    expect(json.error, url).toMatch(why);
    expect(json.cost, url).toBe(0);
  }
}

describe('SSRF guard through the API', () => {
  it('refuses loopback when private networks are not allowed, in every spelling', async () => {
    await expectRefused(
      closed,
      [
        '127.0.0.1',
        'localhost',
        '2130706433',
        '0x7f.0.0.1',
        '017700000001',
        '[::1]',
        '[::ffff:127.0.0.1]',
        '0.0.0.0',
      ].map((host) => `http://${host}:${site.port}/article.html`),
      /refused to fetch|loopback|unspecified/,
    );
    expect(site.hits).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback, after DNS', async () => {
    await expectRefused(
      closed,
      [`http://innocent.example:${site.port}/article.html`],
      /innocent\.example: it resolves to 127\.0\.0\.1 is a loopback address/,
    );
    expect(site.hits).toHaveLength(0);
  });

  it('refuses link-local and metadata addresses even when private networks are allowed', async () => {
    await expectRefused(
      open,
      [
        'http://169.254.169.254/latest/meta-data/',
        'http://[fe80::1]/',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://[fd00:ec2::254]/',
      ],
      /link-local|metadata/,
    );
  });

  it('refuses IPv6 spellings that embed the metadata address, directly and on a redirect', async () => {
    await expectRefused(
      open,
      [
        '[::169.254.169.254]',
        '[::a9fe:a9fe]',
        '[64:ff9b::169.254.169.254]',
        '[2002:a9fe:a9fe::1]',
        '[::ffff:0:169.254.169.254]',
      ].map((host) => `http://${host}/latest/meta-data/`),
      /IPv6 address embedding 169\.254\.169\.254/,
    );
    await expectRefused(
      open,
      [
        `${site.origin}/redirect-to?url=${encodeURIComponent('http://[::169.254.169.254]/latest/meta-data/')}`,
      ],
      /IPv4-compatible IPv6 address embedding 169\.254\.169\.254/,
    );
  });

  it('re-checks every redirect hop', async () => {
    const json = await scrapeOn(
      open,
      `${site.origin}/redirect-to?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
    );
    expect(json.success).toBe(false);
    expect(json.error).toMatch(/169\.254\.169\.254 is a link-local address/);
    expect(json.statusCode).toBe(0);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    await expectRefused(
      open,
      [`${site.origin}/redirect-to?url=${encodeURIComponent('file:///etc/passwd')}`],
      /scheme file: is not allowed/,
    );
  });
});

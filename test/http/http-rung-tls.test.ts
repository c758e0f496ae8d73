import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { ja4, describe as offered } from '../fixtures/client-hello.ts';
import {
  selfSignedCertificate,
  startCaptureServer,
  visitWithChromium,
} from '../fixtures/tls-capture-site.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';

const HOST = 'fp.test';
const site = useFixture(async () => {
  const tls = await selfSignedCertificate(HOST);
  // The service in this process trusts the site as it trusts a public one.
  setDefaultCACertificates([...getCACertificates('default'), tls.cert.toString()]);
  return startCaptureServer(tls);
});
const t = useServer({ settings: { WEBDATA_TEST_RESOLVE: `${HOST}=127.0.0.1` } });

describe('the HTTP rung on an HTTPS site, next to Chromium on the same site', () => {
  it("speaks HTTP/2 with Chrome's cipher suites, groups, signature algorithms, ALPN, windows and headers", async () => {
    const origin = `https://${HOST}:${site.port}`;
    await visitWithChromium(HOST, `${origin}/chromium`);
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url: `${origin}/rung`,
      method: 'http',
    });
    expect(json).toMatchObject({ success: true, method: 'http' });
    const theirs = site.captures.get('/chromium')!;
    const ours = site.captures.get('/rung')!;
    expect(ours.protocol).toBe(theirs.protocol);
    const [mine, chromes] = [offered(ours.hello), offered(theirs.hello)];
    for (const part of ['ciphers', 'groups', 'sigalgs', 'alpn', 'supported versions'])
      expect(mine[part], part).toBe(chromes[part]);
    // JA4's cipher hash; its count of extensions and their hash differ (see bench/http-fingerprint).
    expect(ja4(ours.hello).split('_')[1]).toBe(ja4(theirs.hello).split('_')[1]);
    expect(ours.windowUpdate).toBe(theirs.windowUpdate);
    const setting = (s: string[], id: number) => s.find((e) => e.startsWith(`${id}:`));
    for (const id of [2, 4]) expect(setting(ours.settings, id)).toBe(setting(theirs.settings, id));
    const regular = (names: string[]) => names.filter((n) => !n.startsWith(':'));
    expect(regular(ours.headerNames)).toEqual(regular(theirs.headerNames));
  });
});

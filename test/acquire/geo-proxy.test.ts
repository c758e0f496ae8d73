import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EgressProxy,
  proxyCountryRefusal,
  proxyRouteFor,
  startEgressProxy,
} from '../../src/acquire/index.ts';
import { loadConfig } from '../../src/config.ts';
import { ConfigError, parseProxyUrls } from '../../src/settings/index.ts';
import { type GeoProxyProvider, startGeoProxyProvider } from '../fixtures/geo-proxy-provider.ts';
import { type FixtureSite, startFixtureSite } from '../fixtures/site/server.ts';

describe('WEBDATA_PROXY_URLS', () => {
  it('reads country=url pairs in any case, with a * default', () => {
    const table = parseProxyUrls(
      ' us=http://u:p@us.example:8080, De=https://de.example:443 ,*=http://any.example:3128',
    );
    expect([...table.keys()]).toEqual(['US', 'DE', '*']);
    expect(proxyRouteFor(table, 'us')?.name).toBe('US');
    expect(proxyRouteFor(table, 'DE')?.upstream.href).toBe('https://de.example/');
    expect(proxyRouteFor(table, 'fr')?.name).toBe('*');
    expect(proxyCountryRefusal(table, 'xx')).toBe('"xx" is not an ISO 3166-1 alpha-2 country code');
  });

  it('refuses bad entries at start-up, naming them', () => {
    const load = (value: string) => () => loadConfig({ WEBDATA_PROXY_URLS: value });
    expect(load('usa=http://p.example')).toThrow(ConfigError);
    expect(load('usa=http://p.example')).toThrow(
      '"usa" is not an ISO 3166-1 alpha-2 country code or *',
    );
    expect(load('us=socks5://p.example:1080')).toThrow(
      'must be an http:// or https:// forward proxy',
    );
    expect(load('us=http://a.example,US=http://b.example')).toThrow('US is listed twice');
    expect(load('http://p.example')).toThrow('entries must look like country=url');
    // The proxy's credentials never appear in the message, whichever way the entry is wrong.
    for (const entry of [
      'http://user:s3cret@p.example',
      'http://user:s3=cret@p.example',
      'us http://user:s3cret@p.example',
    ]) {
      expect(load(entry)).toThrow(ConfigError);
      expect(load(entry)).not.toThrow(/s3/);
      expect(load(entry)).toThrow('//***@p.example');
    }
    expect(loadConfig({}).proxyUrls.size).toBe(0);
  });
});

describe('egress proxy routes through an upstream proxy', () => {
  let site: FixtureSite;
  let provider: GeoProxyProvider;
  let egress: EgressProxy;

  beforeAll(async () => {
    site = await startFixtureSite();
    provider = await startGeoProxyProvider(['US']);
    egress = await startEgressProxy(
      { allowPrivate: true, staticHosts: new Map([['rebound.test', '169.254.169.254']]) },
      parseProxyUrls(`us=${provider.urls.US}`),
    );
  });
  afterAll(async () => {
    await egress?.close();
    await provider?.close();
    await site?.close();
  });

  const connectVia = (proxyUrl: string, authority: string) =>
    new Promise<number>((resolve, reject) => {
      const u = new URL(proxyUrl);
      const req = request({ host: u.hostname, port: u.port, method: 'CONNECT', path: authority });
      req.once('connect', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.once('error', reject);
      req.end();
    });

  it('has a listener per configured route and none for others', () => {
    expect(egress.routeUrl('US')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(egress.routeUrl('US')).not.toBe(egress.url);
    expect(egress.routeUrl('DE')).toBeUndefined();
  });

  it('opens CONNECT tunnels through the upstream after checking the destination, and refuses forbidden ones unsent', async () => {
    expect(await connectVia(egress.routeUrl('US')!, `127.0.0.1:${site.port}`)).toBe(200);
    expect(provider.log).toEqual([
      { country: 'US', method: 'CONNECT', target: `127.0.0.1:${site.port}` },
    ]);
    expect(await connectVia(egress.routeUrl('US')!, '169.254.169.254:443')).toBe(403);
    expect(await connectVia(egress.routeUrl('US')!, 'rebound.test:443')).toBe(403);
    expect(provider.log).toHaveLength(1);
    expect(egress.refusals().some((m) => m.includes('rebound.test'))).toBe(true);
  });

  it('the direct listener never touches the upstream', async () => {
    expect(await connectVia(egress.url, `127.0.0.1:${site.port}`)).toBe(200);
    expect(provider.log).toHaveLength(1);
  });
});

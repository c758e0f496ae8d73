import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  BlockedDestinationError,
  checkUrl,
  guardedLookup,
  resolveChecked,
} from '../../src/acquire/index.ts';

const closed = { allowPrivate: false };
const open = { allowPrivate: true };

describe('addressRefusal', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['100.64.1.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a00:1', 'NAT64'],
  ])('refuses %s as %s by default', (ip, kind) => {
    expect(addressRefusal(ip, closed)).toContain(kind);
  });

  // The WHATWG parser writes [::169.254.169.254] as [::a9fe:a9fe], which ipaddr.js calls unicast.
  it.each([
    ['::a9fe:a9fe', 'IPv4-compatible', '169.254.169.254'],
    ['::7f00:1', 'IPv4-compatible', '127.0.0.1'],
    ['::808:808', 'IPv4-compatible', '8.8.8.8'],
    ['::ffff:0:a9fe:a9fe', 'SIIT', '169.254.169.254'],
    ['64:ff9b::a9fe:a9fe', 'NAT64', '169.254.169.254'],
    ['64:ff9b:1::a9fe:a9fe', 'NAT64', '169.254.169.254'],
    ['2002:a9fe:a9fe::1', '6to4', '169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'Teredo', '169.254.169.254'],
  ])('refuses %s, an %s address embedding %s, even with private networks open', (ip, form, v4) => {
    for (const policy of [closed, open]) {
      const refusal = addressRefusal(ip, policy);
      expect(refusal).toContain(form);
      expect(refusal).toContain(v4);
    }
  });

  it('refuses the IPv4-compatible spelling of the metadata address in a URL', () => {
    const url = new URL('http://[::169.254.169.254]/latest/meta-data/');
    expect(url.hostname).toBe('[::a9fe:a9fe]');
    expect(() => checkUrl(url, closed)).toThrow(
      /IPv4-compatible IPv6 address embedding 169\.254\.169\.254/,
    );
    expect(() => checkUrl(url, open)).toThrow(BlockedDestinationError);
  });

  it('allows public unicast addresses', () => {
    for (const ip of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111'])
      expect(addressRefusal(ip, closed)).toBeUndefined();
  });

  it('opens private ranges with the flag but never link-local or metadata', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '::1', 'fd12::1'])
      expect(addressRefusal(ip, open)).toBeUndefined();
    for (const ip of ['169.254.169.254', 'fe80::1', 'fd00:ec2::254', '100.100.100.200'])
      expect(addressRefusal(ip, open)).toBeDefined();
  });
});

describe('guardedLookup', () => {
  it('refuses a name whose answers include a forbidden address', async () => {
    await expect(resolveChecked('localhost', closed)).rejects.toThrow(/loopback/);
    await expect(resolveChecked('localhost', open)).resolves.toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('answers statically mapped names and still checks them', async () => {
    const policy = { allowPrivate: false, staticHosts: new Map([['a.example', '10.9.9.9']]) };
    await expect(resolveChecked('a.example', policy)).rejects.toThrow(
      /10\.9\.9\.9 is a private address/,
    );
    const all = await new Promise<unknown>((resolve, reject) =>
      guardedLookup({ allowPrivate: true, staticHosts: policy.staticHosts })(
        'a.example',
        { all: true },
        (err, addrs) => (err ? reject(err) : resolve(addrs)),
      ),
    );
    expect(all).toEqual([{ address: '10.9.9.9', family: 4 }]);
  });
});

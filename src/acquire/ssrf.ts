import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface NetworkPolicy {
  /** Loopback, private, unique-local and CGNAT ranges become reachable. Link-local and metadata never do. */
  allowPrivate: boolean;
  /** Static host name -> IP answers consulted before DNS (tests only). */
  staticHosts?: ReadonlyMap<string, string>;
}

/** Raised when a URL, host or address may not be fetched. `code` lets callers tell it from network errors. */
export class BlockedDestinationError extends Error {
  readonly code = 'ERR_BLOCKED_DESTINATION';
}

// Cloud metadata endpoints reachable by name or by an address outside link-local.
const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);
const METADATA_ADDRESSES = new Set(['fd00:ec2::254', '100.100.100.200', '168.63.129.16']);
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/** Why an address is refused under the policy, or undefined when it may be reached. */
export function addressRefusal(address: string, policy: NetworkPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // An IPv4-mapped IPv6 address reaches the IPv4 host it embeds; judge that host.
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else {
      const embedded = embeddedIPv4(v6);
      if (embedded)
        return `${v6.toString()} is ${embedded.form} IPv6 address embedding ${embedded.ipv4}`;
    }
  }
  const normalized = parsed.toString();
  if (METADATA_ADDRESSES.has(normalized)) return `${normalized} is a cloud metadata address`;
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (policy.allowPrivate && PRIVATE_RANGES.has(range)) return undefined;
  return `${normalized} is a ${describeRange(range)} address`;
}

/**
 * The IPv4 host carried inside an IPv6 address by the forms that translate or tunnel to IPv4:
 * IPv4-compatible (::a.b.c.d, deprecated, which ipaddr.js files under public unicast), SIIT
 * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48), 6to4 (2002::/16)
 * and Teredo (2001::/32, client address inverted in the last 32 bits). Where such an address
 * leads depends on gateways we cannot see, so none is fetched, whatever the host it embeds.
 */
function embeddedIPv4(v6: ipaddr.IPv6): { form: string; ipv4: string } | undefined {
  const p = v6.parts;
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zeros(0, 6) && (p[6] !== 0 || p[7]! > 1))
    return { form: 'an IPv4-compatible', ipv4: quad(p[6]!, p[7]!) };
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0)
    return { form: 'an IPv4-translated (SIIT)', ipv4: quad(p[6]!, p[7]!) };
  if (p[0] === 0x64 && p[1] === 0xff9b && (p[2] === 0 || p[2] === 1))
    return { form: 'a NAT64', ipv4: quad(p[6]!, p[7]!) };
  if (p[0] === 0x2002) return { form: 'a 6to4', ipv4: quad(p[1]!, p[2]!) };
  if (p[0] === 0x2001 && p[1] === 0)
    return { form: 'a Teredo', ipv4: quad(p[6]! ^ 0xffff, p[7]! ^ 0xffff) };
  return undefined;
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    loopback: 'loopback',
    private: 'private',
    uniqueLocal: 'private (unique-local)',
    carrierGradeNat: 'carrier-grade NAT',
    linkLocal: 'link-local',
    multicast: 'multicast',
    unspecified: 'unspecified',
    broadcast: 'broadcast',
  };
  return names[range] ?? `reserved (${range})`;
}

function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Checks what can be judged from a URL alone: scheme, metadata names, literal IPs. Names that
 * need DNS are judged when the connection is made (see guardedLookup), so the address checked is
 * the address connected to. The WHATWG parser has already turned decimal, octal and hex IPv4
 * spellings into dotted quads by the time we see the host.
 */
export function checkUrl(url: URL, policy: NetworkPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedDestinationError(`scheme ${url.protocol} is not allowed; use http or https`);
  }
  const host = bareHost(url.hostname);
  if (METADATA_HOSTS.has(host))
    throw new BlockedDestinationError(`${host} is a cloud metadata host`);
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new BlockedDestinationError(`refused to fetch ${url.host}: ${refusal}`);
  }
}

/**
 * A `lookup` for net/tls connect that resolves a name and refuses it when any answer is
 * forbidden: a name with one public and one private answer could be steered to the private one.
 */
export function guardedLookup(policy: NetworkPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const host = bareHost(hostname);
    const finish = (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const refusal = addressRefusal(a.address, policy);
        if (refusal)
          return callback(
            new BlockedDestinationError(`refused to fetch ${host}: it resolves to ${refusal}`),
            '',
            0,
          );
      }
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(
          Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' }),
          '',
          0,
        );
      callback(null, first.address, first.family);
    };
    if (METADATA_HOSTS.has(host))
      return finish(new BlockedDestinationError(`${host} is a cloud metadata host`), []);
    const fixed = policy.staticHosts?.get(host);
    if (fixed) return finish(null, [{ address: fixed, family: isIP(fixed) }]);
    dnsLookup(host, { all: true, family: options.family ?? 0 }, (err, addresses) =>
      finish(err, addresses ?? []),
    );
  };
}

/** Resolves a name through the same rules, for callers that connect by other means (the browser). */
export function resolveChecked(hostname: string, policy: NetworkPolicy): Promise<string> {
  const host = bareHost(hostname);
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    return refusal
      ? Promise.reject(new BlockedDestinationError(`refused to fetch ${host}: ${refusal}`))
      : Promise.resolve(host);
  }
  return new Promise((resolve, reject) => {
    guardedLookup(policy)(host, { all: false }, (err, address) =>
      err ? reject(err) : resolve(address as string),
    );
  });
}

/**
 * Judges a destination before anything is sent. Going direct, the checked lookup judges the
 * address at connect time. Through an upstream proxy, which resolves the name itself, we resolve
 * and judge it here first: that narrows the DNS-rebinding window to the moment between the two
 * lookups but cannot close it.
 */
export async function admitDestination(
  url: URL,
  policy: NetworkPolicy,
  viaProxy: boolean,
): Promise<void> {
  checkUrl(url, policy);
  if (viaProxy) await resolveChecked(url.hostname, policy);
}

/** Why a destination was refused, when `err` is that refusal or a connection error it caused. */
export function refusalMessage(err: unknown): string | undefined {
  if (err instanceof BlockedDestinationError) return err.message;
  const cause = (err as { cause?: unknown })?.cause;
  return cause instanceof BlockedDestinationError ? cause.message : undefined;
}

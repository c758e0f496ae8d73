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
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);
const METADATA_ADDRESSES = new Set(['fd00:ec2::254', '100.100.100.200', '168.63.129.16']);
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/** Why an address is refused under the policy, or undefined when it may be reached. */
export function addressRefusal(address: string, policy: NetworkPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let parsed = ipaddr.parse(address);
  // An IPv4-mapped IPv6 address reaches the IPv4 host it embeds; judge that host.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const normalized = parsed.toString();
  if (METADATA_ADDRESSES.has(normalized)) return `${normalized} is a cloud metadata address`;
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (policy.allowPrivate && PRIVATE_RANGES.has(range)) return undefined;
  return `${normalized} is a ${describeRange(range)} address`;
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
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
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
  if (METADATA_HOSTS.has(host)) throw new BlockedDestinationError(`${host} is a cloud metadata host`);
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
        if (refusal) return callback(new BlockedDestinationError(`refused to fetch ${host}: it resolves to ${refusal}`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    };
    if (METADATA_HOSTS.has(host)) return finish(new BlockedDestinationError(`${host} is a cloud metadata host`), []);
    const fixed = policy.staticHosts?.get(host);
    if (fixed) return finish(null, [{ address: fixed, family: isIP(fixed) }]);
    dnsLookup(host, { all: true, family: options.family ?? 0 }, (err, addresses) => finish(err, addresses ?? []));
  };
}

/** Resolves a name through the same rules, for callers that connect by other means (the browser). */
export function resolveChecked(hostname: string, policy: NetworkPolicy): Promise<string> {
  const host = bareHost(hostname);
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    return refusal ? Promise.reject(new BlockedDestinationError(`refused to fetch ${host}: ${refusal}`)) : Promise.resolve(host);
  }
  return new Promise((resolve, reject) => {
    guardedLookup(policy)(host, { all: false }, (err, address) => (err ? reject(err) : resolve(address as string)));
  });
}

import { createHash } from 'node:crypto';

/**
 * A TLS ClientHello read from its record, and the JA4 and JA3 fingerprints of it. Written by hand:
 * the npm JA3/JA4 packages either sniff a live interface (pcap bindings) or are abandoned, and what
 * is needed is a few dozen lines over the record layout of RFC 8446 4.1.2.
 */
export interface ClientHello {
  legacyVersion: number;
  ciphers: number[];
  /** Extension types in the order sent. */
  extensions: number[];
  supportedVersions: number[];
  groups: number[];
  pointFormats: number[];
  sigalgs: number[];
  alpn: string[];
  sni?: string;
}

/** GREASE values (RFC 8701): 0x0a0a, 0x1a1a, ... 0xfafa. */
const isGrease = (v: number) => (v & 0x0f0f) === 0x0a0a && v >> 8 === (v & 0xff);

/** Bytes needed before a whole first TLS record is in, or 0 once it is. */
export function missingRecordBytes(buf: Buffer): number {
  if (buf.length < 5) return 5 - buf.length;
  return Math.max(0, 5 + buf.readUInt16BE(3) - buf.length);
}

export function parseClientHello(record: Buffer): ClientHello {
  if (record[0] !== 0x16 || record[5] !== 0x01) throw new Error('not a TLS ClientHello');
  let p = 9; // record header (5) + handshake type (1) + length (3)
  const legacyVersion = record.readUInt16BE(p);
  p += 2 + 32;
  p += 1 + record[p]!;
  const cipherLen = record.readUInt16BE(p);
  const ciphers: number[] = [];
  for (let i = 0; i < cipherLen; i += 2) ciphers.push(record.readUInt16BE(p + 2 + i));
  p += 2 + cipherLen;
  p += 1 + record[p]!;
  const end = p + 2 + record.readUInt16BE(p);
  p += 2;
  const hello: ClientHello = {
    legacyVersion,
    ciphers,
    extensions: [],
    supportedVersions: [],
    groups: [],
    pointFormats: [],
    sigalgs: [],
    alpn: [],
  };
  const u16s = (from: number, len: number) =>
    Array.from({ length: len / 2 }, (_, i) => record.readUInt16BE(from + i * 2));
  while (p + 4 <= end) {
    const type = record.readUInt16BE(p);
    const len = record.readUInt16BE(p + 2);
    const body = p + 4;
    hello.extensions.push(type);
    if (type === 0) hello.sni = record.toString('latin1', body + 5, body + len);
    else if (type === 10) hello.groups = u16s(body + 2, record.readUInt16BE(body));
    else if (type === 11)
      hello.pointFormats = [...record.subarray(body + 1, body + 1 + record[body]!)];
    else if (type === 13) hello.sigalgs = u16s(body + 2, record.readUInt16BE(body));
    else if (type === 43) hello.supportedVersions = u16s(body + 1, record[body]!);
    else if (type === 16) {
      for (let q = body + 2; q < body + len; q += 1 + record[q]!)
        hello.alpn.push(record.toString('latin1', q + 1, q + 1 + record[q]!));
    }
    p = body + len;
  }
  return hello;
}

const hex4 = (v: number) => v.toString(16).padStart(4, '0');
const sha12 = (s: string) =>
  s ? createHash('sha256').update(s).digest('hex').slice(0, 12) : '000000000000';
const TLS_VERSIONS: Record<number, string> = { 772: '13', 771: '12', 770: '11', 769: '10' };

/** JA4 (FoxIO's spec, TCP): version, SNI, counts, ALPN, then hashes of sorted ciphers and of sorted extensions with the signature algorithms. */
export function ja4(h: ClientHello): string {
  const ciphers = h.ciphers.filter((c) => !isGrease(c));
  const extensions = h.extensions.filter((e) => !isGrease(e));
  const versions = h.supportedVersions.filter((v) => !isGrease(v));
  const version =
    TLS_VERSIONS[Math.max(...(versions.length ? versions : [h.legacyVersion]))] ?? '00';
  const alpn = h.alpn[0] ? `${h.alpn[0][0]}${h.alpn[0].at(-1)}` : '00';
  const a = `t${version}${h.sni ? 'd' : 'i'}${String(Math.min(ciphers.length, 99)).padStart(2, '0')}${String(Math.min(extensions.length, 99)).padStart(2, '0')}${alpn}`;
  const b = sha12(ciphers.map(hex4).sort().join(','));
  const exts = extensions
    .filter((e) => e !== 0 && e !== 16)
    .map(hex4)
    .sort()
    .join(',');
  const sigs = h.sigalgs
    .filter((s) => !isGrease(s))
    .map(hex4)
    .join(',');
  const c = sha12(sigs ? `${exts}_${sigs}` : exts);
  return `${a}_${b}_${c}`;
}

/** JA3's string: legacy version, ciphers, extensions (in the order sent), groups, point formats; GREASE left out. */
export function ja3(h: ClientHello): { text: string; md5: string } {
  const list = (xs: number[]) => xs.filter((x) => !isGrease(x)).join('-');
  const text = [
    h.legacyVersion,
    list(h.ciphers),
    list(h.extensions),
    list(h.groups),
    h.pointFormats.join('-'),
  ].join(',');
  return { text, md5: createHash('md5').update(text).digest('hex') };
}

/** What a ClientHello offers, named for reading side by side. */
export function describe(h: ClientHello): Record<string, string> {
  const list = (xs: number[]) =>
    xs
      .filter((x) => !isGrease(x))
      .map(hex4)
      .join(',');
  return {
    ciphers: list(h.ciphers),
    'extensions (sorted)': [...h.extensions.filter((e) => !isGrease(e))]
      .sort((x, y) => x - y)
      .map(hex4)
      .join(','),
    groups: list(h.groups),
    sigalgs: list(h.sigalgs),
    alpn: h.alpn.join(','),
    'supported versions': list(h.supportedVersions),
  };
}

import { constants } from 'node:crypto';

/**
 * What the HTTP rung's TLS handshake and HTTP/2 opening say, as close to the Chrome of
 * headers.ts as Node's OpenSSL and undici let it be; measured against Debian's Chromium by
 * bench/http-fingerprint (its README lists what stays different and why).
 */

/** Chrome's cipher suites in Chrome's order (TLS 1.3 first); OpenSSL names. */
const CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'ECDHE-RSA-AES128-SHA',
  'ECDHE-RSA-AES256-SHA',
  'AES128-GCM-SHA256',
  'AES256-GCM-SHA384',
  'AES128-SHA',
  'AES256-SHA',
].join(':');

/** Chrome's signature algorithms in its order, the post-quantum ML-DSA ones first. */
const SIGALGS = [
  'mldsa44',
  'mldsa65',
  'mldsa87',
  'ecdsa_secp256r1_sha256',
  'rsa_pss_rsae_sha256',
  'rsa_pkcs1_sha256',
  'ecdsa_secp384r1_sha384',
  'rsa_pss_rsae_sha384',
  'rsa_pkcs1_sha384',
  'rsa_pss_rsae_sha512',
  'rsa_pkcs1_sha512',
].join(':');

/** Chrome's groups; `*` asks OpenSSL for a key share of each of the two Chrome sends one for. */
const GROUPS = '*X25519MLKEM768:*X25519:P-256:P-384';

/** Options of undici's TLS connector (and of a proxy's TLS to the origin). */
export const CHROME_TLS = {
  ciphers: CIPHERS,
  sigalgs: SIGALGS,
  ecdhCurve: GROUPS,
  minVersion: 'TLSv1.2',
  // Chrome asks for OCSP stapling (status_request) and never offers encrypt-then-MAC.
  requestOCSP: true,
  secureOptions: constants.SSL_OP_NO_ENCRYPT_THEN_MAC,
} as const;

/** Chrome offers HTTP/2 first and opens it with a 6 MiB stream window and a 15 MiB connection window. */
export const CHROME_H2 = {
  preferH2: true,
  // undici reads the stream window from h2Options itself, not from its settings (undici 8.12).
  h2Options: { initialWindowSize: 6_291_456, connectionWindowSize: 15_728_640 },
} as const;

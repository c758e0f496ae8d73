/**
 * How the HTTP rung looks on the wire next to Chromium, both talking to the same local TLS server
 * in the same run: the TLS ClientHello (JA4, JA3 and what goes into them), the HTTP/2 opening
 * (Akamai's fingerprint: SETTINGS, WINDOW_UPDATE, PRIORITY frames, pseudo-header order) and the
 * request headers' order.
 *
 *   node bench/http-fingerprint/run.ts
 *
 * The server's certificate is made for the run (openssl, self-signed for fp.test); Chromium is
 * told to accept it with --ignore-certificate-errors, the service by adding it to Node's default
 * CA store. fp.test resolves to loopback for both (--host-resolver-rules, WEBDATA_TEST_RESOLVE), so
 * each sends SNI as it would to a named site. The HTTP rung is reached through the API
 * (`method: "http"`), the way a caller reaches it.
 */
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { describe, ja3, ja4 } from '../../test/fixtures/client-hello.ts';
import {
  type Capture,
  selfSignedCertificate,
  startCaptureServer,
  visitWithChromium,
} from '../../test/fixtures/tls-capture-site.ts';
import { startTestServer } from '../../test/helpers/server.ts';

const HOST = 'fp.test';

/** Akamai's HTTP/2 fingerprint: SETTINGS|WINDOW_UPDATE|PRIORITY|pseudo-header order. */
function akamai(c: Capture): string {
  const pseudo = c.headerNames
    .filter((n) => n.startsWith(':'))
    .map((n) => n[1])
    .join(',');
  return `${c.settings.join(';')}|${c.windowUpdate}|${c.priorities.join(',') || '0'}|${pseudo}`;
}

const tls = await selfSignedCertificate(HOST);
setDefaultCACertificates([...getCACertificates('default'), tls.cert.toString()]);
const capture = await startCaptureServer(tls);
const origin = `https://${HOST}:${capture.port}`;

await visitWithChromium(HOST, `${origin}/chromium`);

const t = await startTestServer({ WEBDATA_TEST_RESOLVE: `${HOST}=127.0.0.1` });
try {
  const { json } = await t.api('POST', '/api/v1/scrape/single', {
    url: `${origin}/rung`,
    method: 'http',
  });
  if (!json.success) throw new Error(`the HTTP rung could not fetch the page: ${json.error}`);
} finally {
  await t.close();
  await capture.close();
}

const theirs = capture.captures.get('/chromium')!;
const ours = capture.captures.get('/rung')!;
const rows: Array<[string, string, string]> = [
  ['protocol', theirs.protocol, ours.protocol],
  ['JA4', ja4(theirs.hello), ja4(ours.hello)],
  ['JA3 (md5)', ja3(theirs.hello).md5, ja3(ours.hello).md5],
  ...Object.keys(describe(theirs.hello)).map(
    (k) => [k, describe(theirs.hello)[k]!, describe(ours.hello)[k]!] as [string, string, string],
  ),
  ['HTTP/2 (Akamai)', akamai(theirs), akamai(ours)],
  ['header order (pseudo-headers first)', theirs.headerNames.join(','), ours.headerNames.join(',')],
];
for (const [name, chromiumValue, rungValue] of rows) {
  const same = chromiumValue === rungValue;
  console.log(
    `${same ? '=' : '≠'} ${name}\n    chromium: ${chromiumValue}\n    http rung: ${rungValue}`,
  );
}
// Pseudo-headers are HTTP/2's own and counted in its fingerprint; these are the request's headers.
const regular = (names: string[]) =>
  names.filter((n) => !n.startsWith(':')).map((n) => n.toLowerCase());
console.log(
  `RESULT ja4_match=${Number(ja4(theirs.hello) === ja4(ours.hello))} h2_match=${Number(ours.protocol === 'h2' && akamai(theirs) === akamai(ours))} headers_match=${Number(regular(theirs.headerNames).join() === regular(ours.headerNames).join())}`,
);

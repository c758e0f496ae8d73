import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A site with a sitemap index of `total` URLs over `parts` children, alternately gzip and plain unless `plainOnly`;
 * `pad` bytes of image-extension caption per entry make the files as heavy as real ones get. */
export interface BenchSite {
  origin: string;
  /** Paths of the index and every child, in order. */
  files: string[];
  /** Bytes of all those files as served (gzip ones compressed). */
  bytes: number;
  close(): Promise<void>;
}

const WORDS = [
  'alpine',
  'battery',
  'cloud',
  'deploy',
  'engine',
  'forest',
  'garden',
  'harbor',
  'invoice',
  'jacket',
  'kernel',
  'ladder',
  'market',
  'network',
  'orange',
  'pricing',
  'quartz',
  'river',
  'server',
  'ticket',
  'update',
  'valley',
  'widget',
  'yellow',
  'zebra',
  'install',
  'monitor',
  'backup',
  'storage',
  'payment',
];
const SECTIONS = ['blog', 'docs', 'products', 'guides', 'news'];

function path(i: number): string {
  const w = (k: number) => WORDS[(i * 7 + k * 13 + Math.floor(i / 31)) % WORDS.length];
  return `/${SECTIONS[i % SECTIONS.length]}/${w(1)}-${w(2)}-${w(3)}-${i}`;
}

export async function startBenchSite(
  total = 50_000,
  parts = 10,
  plainOnly = false,
  pad = 0,
): Promise<BenchSite> {
  const bodies = new Map<string, { type: string; body: Buffer }>();
  const server: Server = createServer((req, res) => {
    const file = bodies.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not found</body></html>');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const per = Math.ceil(total / parts);
  const extra =
    pad > 0
      ? `<image:image><image:loc>${origin}/img.png</image:loc><image:caption>${'x'.repeat(pad)}</image:caption></image:image>`
      : '';
  const children: string[] = [];
  for (let p = 0; p < parts; p++) {
    const gz = !plainOnly && p % 2 === 0;
    const name = `/sitemaps/part-${p}.xml${gz ? '.gz' : ''}`;
    const urls: string[] = [];
    for (let i = p * per; i < Math.min(total, (p + 1) * per); i++)
      urls.push(
        `<url><loc>${origin}${path(i)}</loc><lastmod>2026-01-01</lastmod><changefreq>weekly</changefreq>${extra}</url>`,
      );
    const xml = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n${urls.join('\n')}\n</urlset>\n`,
    );
    bodies.set(
      name,
      gz
        ? { type: 'application/x-gzip', body: gzipSync(xml) }
        : { type: 'application/xml', body: xml },
    );
    children.push(name);
  }
  const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.map((c) => `<sitemap><loc>${origin}${c}</loc></sitemap>`).join('')}</sitemapindex>`;
  bodies.set('/sitemap_index.xml', { type: 'application/xml', body: Buffer.from(index) });
  bodies.set('/robots.txt', {
    type: 'text/plain',
    body: Buffer.from(`User-agent: *\nSitemap: ${origin}/sitemap_index.xml\n`),
  });
  bodies.set('/', {
    type: 'text/html',
    body: Buffer.from('<html><body><a href="/docs">Docs</a><a href="/blog">Blog</a></body></html>'),
  });
  return {
    origin,
    files: ['/sitemap_index.xml', ...children],
    bytes: [...bodies.values()].reduce((sum, f) => sum + f.body.length, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

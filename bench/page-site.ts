import { createServer } from 'node:http';

export interface PageSite {
  /** The URL of each page, in the order given. */
  urls: string[];
  close(): void;
}

/** Serves each HTML page at `/p/<index>.html` on a loopback port, as the site a bench scrapes. */
export async function servePages(pages: readonly string[]): Promise<PageSite> {
  const site = createServer((req, res) => {
    const i = Number(/^\/p\/(\d+)\.html$/.exec(req.url ?? '')?.[1] ?? -1);
    if (!(i >= 0 && i < pages.length)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[i]);
  });
  // Kept-alive sockets outlive a slow phase on a loaded machine; a server closing one as a client reuses it is a reset.
  site.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  return { urls: pages.map((_, i) => `${origin}/p/${i}.html`), close: () => site.close() };
}

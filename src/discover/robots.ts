/** The `Sitemap:` lines of a robots.txt, made absolute against its URL. */
export function robotsSitemaps(text: string, robotsUrl: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!m) continue;
    try {
      out.push(new URL(m[1]!, robotsUrl).href);
    } catch {
      // Not a URL: nothing to follow.
    }
  }
  return out;
}

import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import { Parser } from 'htmlparser2';

/** A URL a sitemap or feed lists, with the title it gives the page when it gives one. */
export interface ListedUrl {
  url: string;
  title?: string;
}

/** `html` is a web page served without a type where a sitemap was looked for. */
export type SitemapKind = 'urlset' | 'index' | 'feed' | 'text' | 'html' | 'unknown';

export interface SitemapReadOptions {
  maxEntries: number;
  maxXmlDepth: number;
  /** Largest document after decompression. */
  maxBytes: number;
  onPage(entry: ListedUrl): void;
  onChild(url: string): void;
}

export interface SitemapReadResult {
  kind: SitemapKind;
  /** Bytes read after decompression. */
  bytes: number;
  /** Bytes taken from the source, before any gzip was inflated. */
  read: number;
  /** Why reading stopped early (a bound was hit, the gzip was broken); the entries before it count. */
  stopped?: string;
}

const MAX_TEXT = 4096;
const CHUNK = 64 * 1024;
const YIELD_EVERY = 16 * CHUNK;
const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Reads one sitemap, sitemap index, text sitemap or RSS/Atom feed as a stream of text chunks.
 * XML goes through htmlparser2's streaming tokenizer in XML mode, so a 50,000-URL sitemap is
 * never held as a tree, and custom DTD entities are never expanded (no billion laughs).
 */
class SitemapReader {
  readonly #opts: SitemapReadOptions;
  kind: SitemapKind | undefined;
  stopped: string | undefined;
  #entries = 0;
  #parser: Parser | undefined;
  #line = '';
  // Element stack as local names: sitemap elements in the root's namespace prefix lose it,
  // extension elements (image:loc, xhtml:link) keep theirs and never match.
  #stack: string[] = [];
  #rootPrefix = '';
  #loc = '';
  #title = '';
  #link = '';

  constructor(opts: SitemapReadOptions) {
    this.#opts = opts;
  }

  write(text: string): void {
    if (this.stopped) return;
    if (this.kind === undefined) {
      const trimmed = text.replace(/^\uFEFF/, '').trimStart();
      if (!trimmed) return;
      if (trimmed.startsWith('<')) {
        this.kind = 'unknown';
        this.#parser = this.#xmlParser();
      } else {
        this.kind = 'text';
      }
    }
    if (this.#parser) this.#parser.write(text);
    else this.#text(text, false);
  }

  end(): void {
    if (this.stopped) return;
    if (this.#parser) this.#parser.end();
    else this.#text('', true);
  }

  #stop(reason: string): void {
    this.stopped ??= reason;
  }

  #page(url: string, title?: string): void {
    if (this.#entries >= this.#opts.maxEntries) {
      this.#stop(`more than ${this.#opts.maxEntries} entries`);
      return;
    }
    this.#entries++;
    const t = title?.replace(/\s+/g, ' ').trim();
    this.#opts.onPage(t ? { url, title: t } : { url });
  }

  #child(url: string): void {
    if (this.#entries >= this.#opts.maxEntries) {
      this.#stop(`more than ${this.#opts.maxEntries} entries`);
      return;
    }
    this.#entries++;
    this.#opts.onChild(url);
  }

  #text(chunk: string, last: boolean): void {
    const lines = (this.#line + chunk).split(/\r?\n/);
    this.#line = last ? '' : lines.pop()!;
    // A line longer than any URL is not a URL list: stop rather than buffer it.
    if (this.#line.length > MAX_TEXT) {
      this.#stop('a line longer than any URL');
      return;
    }
    for (const raw of lines) {
      const line = raw.trim();
      if (/^https?:\/\/\S+$/i.test(line) && line.length <= MAX_TEXT) this.#page(line);
      if (this.stopped) return;
    }
  }

  #local(name: string): string {
    const colon = name.indexOf(':');
    if (colon < 0) return name.toLowerCase();
    return name.slice(0, colon) === this.#rootPrefix
      ? name.slice(colon + 1).toLowerCase()
      : name.toLowerCase();
  }

  #xmlParser(): Parser {
    return new Parser(
      {
        onopentag: (name, attribs) => {
          if (this.stopped) return;
          if (this.#stack.length === 0) {
            const colon = name.indexOf(':');
            this.#rootPrefix =
              colon > 0 && name.slice(colon + 1).toLowerCase() !== 'rdf'
                ? name.slice(0, colon)
                : '';
            const root = this.#local(name);
            this.kind =
              root === 'urlset'
                ? 'urlset'
                : root === 'sitemapindex'
                  ? 'index'
                  : root === 'rss' || root === 'feed' || name.toLowerCase() === 'rdf:rdf'
                    ? 'feed'
                    : root === 'html'
                      ? 'html'
                      : 'unknown';
            if (this.kind === 'html') return this.#stop('a web page, not a sitemap');
            if (this.kind === 'unknown')
              return this.#stop(`not a sitemap or feed (root element <${name}>)`);
          }
          const local = this.#local(name);
          const parent = this.#stack.at(-1);
          this.#stack.push(local);
          if (this.#stack.length > this.#opts.maxXmlDepth)
            return this.#stop(`XML nested deeper than ${this.#opts.maxXmlDepth} elements`);
          if (local === 'url' || local === 'sitemap' || local === 'item' || local === 'entry') {
            this.#loc = '';
            this.#title = '';
            this.#link = '';
          } else if (
            local === 'link' &&
            parent === 'entry' &&
            attribs.href &&
            (!attribs.rel || attribs.rel === 'alternate')
          ) {
            this.#link ||= attribs.href;
          }
        },
        ontext: (text) => {
          if (this.stopped) return;
          const top = this.#stack.at(-1);
          const parent = this.#stack.at(-2);
          if (top === 'loc' && (parent === 'url' || parent === 'sitemap')) {
            if (this.#loc.length < MAX_TEXT) this.#loc += text;
          } else if (top === 'link' && parent === 'item') {
            if (this.#link.length < MAX_TEXT) this.#link += text;
          } else if (
            top?.endsWith('title') &&
            this.#stack.some((s) => s === 'url' || s === 'item' || s === 'entry')
          ) {
            // <title> of an item or entry, or an extension's title (news:title) inside a <url>.
            if (this.#title.length < MAX_TEXT) this.#title += text;
          }
        },
        onclosetag: () => {
          if (this.stopped) return;
          const local = this.#stack.pop();
          if (local === undefined) return;
          if (local === 'url' && this.kind === 'urlset' && this.#loc.trim())
            this.#page(this.#loc.trim(), this.#title);
          else if (local === 'sitemap' && this.kind === 'index' && this.#loc.trim())
            this.#child(this.#loc.trim());
          else if (
            (local === 'item' || local === 'entry') &&
            this.kind === 'feed' &&
            this.#link.trim()
          )
            this.#page(this.#link.trim(), this.#title);
        },
      },
      { xmlMode: true, decodeEntities: true },
    );
  }
}

function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

/** The source in pieces small enough to parse between turns of the event loop. */
async function* pieces(source: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  let sinceYield = 0;
  for await (const chunk of source) {
    for (let at = 0; at < chunk.length; at += CHUNK) {
      const piece = chunk.subarray(at, at + CHUNK);
      yield piece;
      sinceYield += piece.length;
      if (sinceYield >= YIELD_EVERY) {
        sinceYield = 0;
        await yieldToLoop();
      }
    }
  }
}

/**
 * Reads a sitemap body, gzip or plain, as it arrives (a response stream) or from memory. Gzip is
 * recognised by its magic bytes rather than by the `.gz` name or the headers: servers often send
 * `.xml.gz` already inflated through Content-Encoding (which the HTTP engine has undone), and
 * sometimes plain XML under `.gz`. Inflated bytes are counted as they come, so a gzip bomb stops
 * at `maxBytes`. A source that fails part way (a dropped connection, the engine's byte limit or
 * deadline) stops the reading; the entries before it count. The caller owns the source: a
 * stream must be destroyed once this answers, for reading may stop before its end.
 */
export async function readSitemap(
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  opts: SitemapReadOptions,
): Promise<SitemapReadResult> {
  const reader = new SitemapReader(opts);
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let read = 0;
  const feed = (chunk: Buffer): boolean => {
    bytes += chunk.length;
    if (bytes > opts.maxBytes) {
      reader.stopped ??= `larger than ${opts.maxBytes} bytes`;
      return false;
    }
    reader.write(decoder.write(chunk));
    return !reader.stopped;
  };
  const counted = async function* (): AsyncGenerator<Buffer> {
    for await (const piece of pieces(source)) {
      read += piece.length;
      yield piece;
    }
  };
  const input = counted();
  let sourceError: Error | undefined;
  try {
    // The first two bytes decide between gzip and plain; a source may hand them over one by one.
    let head = Buffer.alloc(0);
    while (head.length < 2) {
      const next = await input.next();
      if (next.done) break;
      head = Buffer.concat([head, next.value]);
    }
    if (isGzip(head)) {
      const gunzip = createGunzip();
      const compressed = Readable.from(
        (async function* () {
          yield head;
          yield* input;
        })(),
        { objectMode: false },
      );
      compressed.on('error', (err) => {
        sourceError = err;
        gunzip.destroy(err);
      });
      compressed.pipe(gunzip);
      try {
        for await (const chunk of gunzip) {
          if (!feed(chunk as Buffer)) break;
        }
      } catch (err) {
        if (!sourceError) reader.stopped ??= `broken gzip: ${(err as Error).message}`;
      } finally {
        gunzip.destroy();
        compressed.destroy();
      }
    } else if (head.length > 0 && feed(head)) {
      for await (const piece of input) {
        if (!feed(piece)) break;
      }
    }
  } catch (err) {
    sourceError = err as Error;
  } finally {
    // Not awaited: a gzip read-ahead may still be waiting on the network, and the caller ends
    // that wait by destroying the source.
    void input.return(undefined);
  }
  if (sourceError) reader.stopped ??= sourceError.message;
  if (!reader.stopped) {
    reader.write(decoder.end());
    reader.end();
  }
  return {
    kind: reader.kind ?? 'unknown',
    bytes,
    read,
    ...(reader.stopped ? { stopped: reader.stopped } : {}),
  };
}

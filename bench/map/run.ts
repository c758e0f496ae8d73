/**
 * bench/map: a sitemap index of 50,000 URLs over gzip and plain children, served on loopback,
 * mapped to 5,000 links ranked by a keyword, against the baseline of just downloading the same
 * files and XML-parsing them (streaming, URLs collected) in the same run. Each side runs in its
 * own child process so that peak RSS is its own.
 *
 *   npm run bench:map            (ROUNDS=7 by default)
 *   PARTS=1 PLAIN=1 PAD=750 npm run bench:map   (one plain 50,000-URL sitemap of 50 MB, the
 *                                             case that streaming the download is for)
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { HttpEngine } from '../../src/acquire/index.ts';
import { DEFAULT_LIMITS, discover } from '../../src/discover/index.ts';
import { startBenchSite } from './site.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const PARTS = Number(process.env.PARTS ?? 10);
const PLAIN = process.env.PLAIN === '1';
const PAD = Number(process.env.PAD ?? 0);
const KEYWORD = 'pricing guide';

function engine(): HttpEngine {
  return new HttpEngine({
    policy: { allowPrivate: true },
    timeoutMs: 30_000,
    maxBytes: 100 * 1024 * 1024,
    maxRedirects: 5,
  });
}

/** The floor: fetch every file, inflate the gzip ones, stream-parse them, keep the <loc>s. */
async function baseline(http: HttpEngine, origin: string, files: string[]): Promise<number> {
  const locs: string[] = [];
  for (const file of files) {
    const res = await http.fetch(origin + file);
    const body = res.body[0] === 0x1f && res.body[1] === 0x8b ? gunzipSync(res.body) : res.body;
    let inLoc = false;
    let loc = '';
    const parser = new Parser(
      {
        onopentag: (name) => {
          inLoc = name === 'loc';
          loc = '';
        },
        ontext: (t) => {
          if (inLoc) loc += t;
        },
        onclosetag: (name) => {
          if (name === 'loc') locs.push(loc.trim());
          inLoc = false;
        },
      },
      { xmlMode: true },
    );
    for (let at = 0; at < body.length; at += 65536)
      parser.write(body.subarray(at, at + 65536).toString('utf8'));
    parser.end();
  }
  return locs.length;
}

async function mapIt(http: HttpEngine, origin: string): Promise<number> {
  const result = await discover(
    http,
    {
      url: `${origin}/`,
      limit: 5000,
      search: KEYWORD,
      includeSubdomains: false,
      ignoreQueryParameters: true,
    },
    new AbortController().signal,
    DEFAULT_LIMITS,
  );
  return result.links.length;
}

/**
 * One side of the comparison in a fresh process. `rounds` 0 runs the work once, cold, for peak
 * RSS alone: repeated rounds would measure how lazily V8 collects garbage rather than the work.
 */
async function child(mode: string, origin: string, files: string[], rounds: number): Promise<void> {
  const http = engine();
  const run = () => (mode === 'map' ? mapIt(http, origin) : baseline(http, origin, files));
  let count = await run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    count = await run();
    times.push(performance.now() - t0);
  }
  await http.close();
  times.sort((a, b) => a - b);
  const out = {
    mode,
    count,
    medianMs: times[Math.floor(times.length / 2)] ?? 0,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(JSON.stringify(out));
}

async function main(): Promise<void> {
  const [mode, origin, files, rounds] = process.argv.slice(2);
  if (mode) return child(mode, origin!, JSON.parse(files!), Number(rounds));
  const site = await startBenchSite(50_000, PARTS, PLAIN, PAD);
  try {
    // The fixture server lives in this process, so children run asynchronously beside it.
    const run = promisify(execFile);
    const runChild = async (m: string, rounds: number) =>
      JSON.parse(
        (
          await run(process.execPath, [
            import.meta.filename,
            m,
            site.origin,
            JSON.stringify(site.files),
            String(rounds),
          ])
        ).stdout,
      );
    // An idle child (imports only) shows what every process pays before doing any work.
    const idle = Number(
      (
        await run(process.execPath, [
          '-e',
          'import("htmlparser2").then(()=>import("undici")).then(()=>process.stdout.write(String(process.resourceUsage().maxRSS/1024)))',
        ])
      ).stdout,
    );
    const base = await runChild('baseline', ROUNDS);
    const mapped = await runChild('map', ROUNDS);
    const baseMem = await runChild('baseline', 0);
    const mapMem = await runChild('map', 0);
    const fmt = (n: number) => n.toFixed(1);
    console.log(
      `sitemap index: ${site.files.length - 1} children (${PLAIN ? 'plain' : 'gzip and plain'}), 50,000 URLs, ${(site.bytes / 1e6).toFixed(1)} MB as served; map limit 5000, search "${KEYWORD}"; ${ROUNDS} rounds, median`,
    );
    console.log(
      `baseline (download + XML parse): ${base.count} URLs, ${fmt(base.medianMs)} ms warm; one cold run peaks at ${fmt(baseMem.maxRssMB)} MB RSS`,
    );
    console.log(
      `map (discover + rank):           ${mapped.count} links, ${fmt(mapped.medianMs)} ms warm; one cold run peaks at ${fmt(mapMem.maxRssMB)} MB RSS`,
    );
    console.log(`idle process RSS: ${fmt(idle)} MB`);
    const timeRatio = mapped.medianMs / base.medianMs;
    const rssRatio = mapMem.maxRssMB / baseMem.maxRssMB;
    const aboveIdle = (mapMem.maxRssMB - idle) / (baseMem.maxRssMB - idle);
    console.log(`time ratio map/baseline: ${timeRatio.toFixed(2)}x`);
    console.log(
      `peak RSS ratio map/baseline: ${rssRatio.toFixed(2)}x (above idle: ${aboveIdle.toFixed(2)}x)`,
    );
    console.log(
      `RESULT map_over_baseline_time=${timeRatio.toFixed(3)} map_over_baseline_rss=${rssRatio.toFixed(3)} map_over_baseline_rss_above_idle=${aboveIdle.toFixed(3)} map_ms=${fmt(mapped.medianMs)} baseline_ms=${fmt(base.medianMs)} map_peak_rss_mb=${fmt(mapMem.maxRssMB)} links=${mapped.count}`,
    );
  } finally {
    await site.close();
  }
}

await main();

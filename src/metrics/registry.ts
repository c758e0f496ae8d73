import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric the service exports, defined once. The registry is the process's own (not
 * prom-client's global one) so a library registering metrics of its own cannot collide with ours.
 * Metrics are per process: with several instances on Postgres, sum counters across them and read
 * the job queue gauges (which count the shared store) with max().
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'webdata_' });

function counter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

const requests = counter(
  'webdata_http_requests_total',
  'HTTP requests answered, by method, route template and status code',
  ['method', 'route', 'status'],
);

const latency = new Histogram({
  name: 'webdata_http_request_duration_seconds',
  help: 'Time from request to response, by method and route template',
  labelNames: ['method', 'route'] as const,
  // Scrapes that escalate to a browser take seconds; the top buckets cover the longest waits the limits allow.
  buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [registry],
});

const shed = counter(
  'webdata_shed_requests_total',
  'Requests refused with 503 because the process was over a load bound, by bound',
  ['reason'],
);

const chargesUsd = counter(
  'webdata_charges_usd_total',
  'Money charged to users (written to the usage ledger), by operation',
  ['operation'],
);

const chargeUnits = counter(
  'webdata_charge_units_total',
  'Units charged (pages, queries, breakpoints, session seconds), by operation',
  ['operation'],
);

const blockVerdicts = counter(
  'webdata_block_verdicts_total',
  'Pages judged an anti-bot challenge or block, by the method that fetched them, kind and reason',
  ['method', 'kind', 'reason'],
);

/** What the gauges read at scrape time; the composition root hands these in (see watch()). */
export interface GaugeSources {
  browserPools(): Record<string, { browsers: number; activePages: number; waiting: number }>;
  sessions(): { count: number; capacity: number };
  /** Job items not yet recorded, from the job store. */
  jobItems(): Promise<{ pending: number; running: number }>;
  conversion(): { threads: number; busy: number; queued: number };
}

const sources = new Set<GaugeSources>();

/**
 * Registers what a running server reads its gauges from; the returned function unregisters it.
 * Several servers in one process (tests) add up.
 */
export function watch(source: GaugeSources): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

function gauge(
  name: string,
  help: string,
  labelNames: string[],
  read: (set: (value: number, labels?: Record<string, string>) => void) => Promise<void> | void,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      const totals = new Map<
        string,
        { labels: Record<string, string> | undefined; value: number }
      >();
      await read((value, labels) => {
        const key = JSON.stringify(labels ?? {});
        const entry = totals.get(key) ?? { labels, value: 0 };
        entry.value += value;
        totals.set(key, entry);
      });
      for (const { labels, value } of totals.values()) {
        if (labels) this.set(labels, value);
        else this.set(value);
      }
    },
  });
}

const each = async (fn: (s: GaugeSources) => Promise<void> | void) => {
  for (const s of sources) await fn(s);
};

gauge(
  'webdata_browser_pages_in_use',
  'Browser pages open in the scraping pools, by pool',
  ['pool'],
  (set) =>
    each((s) => {
      for (const [pool, stats] of Object.entries(s.browserPools()))
        set(stats.activePages, { pool });
    }),
);
gauge(
  'webdata_browser_pages_waiting',
  'Requests waiting for a free browser page, by pool',
  ['pool'],
  (set) =>
    each((s) => {
      for (const [pool, stats] of Object.entries(s.browserPools())) set(stats.waiting, { pool });
    }),
);
gauge('webdata_browsers', 'Browser processes in the scraping pools, by pool', ['pool'], (set) =>
  each((s) => {
    for (const [pool, stats] of Object.entries(s.browserPools())) set(stats.browsers, { pool });
  }),
);
gauge('webdata_sessions_active', 'Remote browser sessions running on this instance', [], (set) =>
  each((s) => set(s.sessions().count)),
);
gauge(
  'webdata_sessions_capacity',
  'Most remote browser sessions this instance runs at once',
  [],
  (set) => each((s) => set(s.sessions().capacity)),
);
gauge(
  'webdata_job_items',
  'Async job items not yet recorded, by state (the shared store: read with max() across instances)',
  ['state'],
  (set) =>
    each(async (s) => {
      const { pending, running } = await s.jobItems();
      set(pending, { state: 'pending' });
      set(running, { state: 'running' });
    }),
);
gauge('webdata_conversion_threads', 'Worker threads converting pages', [], (set) =>
  each((s) => set(s.conversion().threads)),
);
gauge('webdata_conversion_threads_busy', 'Conversion worker threads running a task', [], (set) =>
  each((s) => set(s.conversion().busy)),
);
gauge('webdata_conversion_tasks_queued', 'Conversions waiting for a worker thread', [], (set) =>
  each((s) => set(s.conversion().queued)),
);

/** A request answered. `route` is the route's template (never the raw path, whose ids would explode the label set). */
export function countRequest(method: string, route: string, status: number, seconds: number): void {
  requests.inc({ method, route, status: String(status) });
  latency.observe({ method, route }, seconds);
}

export function countShed(reason: string): void {
  shed.inc({ reason });
}

/** Charges written to the ledger, counted once their write is committed. */
export function countCharges(
  entries: ReadonlyArray<{ operation: string; units: number; costMicros: number }>,
): void {
  for (const e of entries) {
    chargesUsd.inc({ operation: e.operation }, e.costMicros / 1_000_000);
    chargeUnits.inc({ operation: e.operation }, e.units);
  }
}

/** Most distinct block reasons kept as labels; beyond it they count as `other`, so a new reason text cannot grow the series without bound. */
const MAX_BLOCK_REASONS = 64;
const blockReasons = new Set<string>();

/**
 * A fetched page judged a challenge or block. Reasons that quote the page (a block page's title)
 * drop the quote, so the label names the rule that matched, not the page.
 */
export function countBlock(method: string, verdict: { kind: string; reason: string }): void {
  let reason = verdict.reason.replace(/\s*\(".*"\)$/s, '').slice(0, 80);
  if (!blockReasons.has(reason)) {
    if (blockReasons.size >= MAX_BLOCK_REASONS) reason = 'other';
    else blockReasons.add(reason);
  }
  blockVerdicts.inc({ method, kind: verdict.kind, reason });
}

/** Times are epoch milliseconds (bigint in Postgres, integer in SQLite) so both backends agree. */
export interface UsersTable {
  id: string;
  name: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** First characters of the key, shown by `keys list` so a user can tell keys apart. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  created_at: number;
  revoked_at: number | null;
}

export interface UsageLedgerTable {
  id: string;
  user_id: string;
  operation: string;
  units: number;
  cost_micros: number;
  /** What the charge belongs to: a job id, a session id, or null for a synchronous call. */
  ref: string | null;
  created_at: number;
}

/** A remote browser session; its browser runs on the instance named by `instance_url`. */
export interface BrowserSessionsTable {
  id: string;
  user_id: string;
  /** active | closed */
  status: string;
  browser: string;
  /** 0 or 1: both backends store booleans the same way. */
  headless: number;
  proxy: number;
  width: number;
  height: number;
  /** SHA-256 of the current WebSocket token, hex; null once closed. */
  token_hash: string | null;
  /** WEBDATA_PUBLIC_URL of the instance running (or last running) the browser. */
  instance_url: string;
  /** JSON { cookies, origins: [{ origin, localStorage: [{ name, value }] }] } saved at close. */
  storage_state: string | null;
  last_url: string | null;
  /** manual | timeout | error, null while active. */
  close_reason: string | null;
  created_at: number;
  /** Start of the current (or last) active period: billing runs from here. */
  started_at: number;
  closed_at: number | null;
  last_activity_at: number;
  /** Charges of the periods already closed, micro-dollars. */
  billed_micros: number;
}

/** A named browser profile of a user: a whole user-data folder kept under the data folder. */
export interface BrowserProfilesTable {
  user_id: string;
  name: string;
  created_at: number;
  /** When a session last saved into it; null until one did. */
  saved_at: number | null;
  /** The session using it now; a profile serves one session at a time. */
  in_use_by: string | null;
}

export interface JobsTable {
  id: string;
  user_id: string;
  /** scrape-single, scrape-batch, sequence, sequence-batch, search-batch */
  type: string;
  /** pending, processing, completed, failed, cancelled */
  status: string;
  total: number;
  /** Items with a recorded result, successful or not. */
  completed: number;
  /** Sum of the recorded items' costs. */
  cost_micros: number;
  /** Why the job could not run at all (status failed). */
  error: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
  /** Most items the job may ever hold (a crawl's page limit); null for a job whose items are fixed at start. */
  max_items: number | null;
  /** JSON { url, headers, events } the job's events are delivered to; null for none. */
  webhook: string | null;
}

export interface JobItemsTable {
  job_id: string;
  /** Position in the request; results are returned in this order. */
  idx: number;
  /** pending, running, done */
  state: string;
  /** The item's operation input, JSON. */
  input: string;
  /** The item's operation result, JSON; written exactly once, with the item's charges. */
  result: string | null;
  cost_micros: number;
  /** Times the item was started; an item whose runner died is started again, up to a bound. */
  attempts: number;
  started_at: number | null;
  finished_at: number | null;
  /** What a discovered item is deduplicated by within its job (a crawl page's normalised URL); null otherwise. */
  item_key: string | null;
}

/** The webhook outbox: one row per event of a job, written in the transaction that caused it. */
export interface WebhookEventsTable {
  id: string;
  job_id: string;
  user_id: string;
  /** started, item, completed, failed, cancelled */
  event: string;
  url: string;
  /** JSON object of the caller's extra headers. */
  headers: string;
  /** The JSON body exactly as signed and sent. */
  body: string;
  /** pending, delivered, failed */
  state: string;
  attempts: number;
  /** When the next attempt may start (a claim pushes it forward by the attempt's lease). */
  next_at: number;
  created_at: number;
  delivered_at: number | null;
}

export interface WebhookAttemptsTable {
  event_id: string;
  job_id: string;
  attempt: number;
  at: number;
  /** The receiver's HTTP status; null when no answer came. */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** The secret a user's webhook deliveries are signed with. */
export interface WebhookSecretsTable {
  user_id: string;
  secret: string;
  created_at: number;
}

/** One cached scrape result; its body is a compressed file under the data folder named by `id`. */
export interface PageCacheTable {
  /** SHA-256 of `scope` and `key`, hex. */
  id: string;
  /** SHA-256 of everything that shapes the result (URL, formats, options), hex. */
  key: string;
  /** The user whose request stored the entry: only this user may delete it. */
  scope: string;
  /** The normalised URL asked for, matched by `DELETE /v1/cache`. */
  url: string;
  /** Size of the compressed body on disk: what the byte budget counts. */
  bytes: number;
  created_at: number;
  /** Last time the entry was stored or served: eviction takes the least recently used first. */
  used_at: number;
}

/** The last page a user's change tracking saw, per URL and tag. */
export interface PageSnapshotsTable {
  /** SHA-256 of scope, url and tag, hex. */
  id: string;
  scope: string;
  /** The normalised URL. */
  url: string;
  /** The caller's tag; '' for none. */
  tag: string;
  /** The main content's markdown as scraped. */
  markdown: string;
  /** The extraction's object as JSON, when change tracking's json mode compared one. */
  json: string | null;
  created_at: number;
}

/** A user's monitor: what each check fetches, when, and where changes are sent. */
export interface MonitorsTable {
  id: string;
  user_id: string;
  name: string | null;
  /** JSON: the request as the caller gave it (webhook headers left out), answered by GET. */
  request: string;
  /** The job type each check runs (scrape-batch or crawl). */
  job_type: string;
  /** JSON { inputs, keys?, maxItems? }: the job each check creates, its inputs checked at creation. */
  job: string;
  /** JSON { cron, timezone } or { intervalSeconds }. */
  schedule: string;
  /** change or always. */
  notify: string;
  /** JSON { url, headers, events }; null for none. */
  webhook: string | null;
  /** 1 when paused: no check is claimed. */
  paused: number;
  /** When the next check is due; the scheduler's claim moves it on. */
  next_run_at: number;
  /** The check (its job's id) still running; no other starts meanwhile. */
  running_check: string | null;
  /** Checks that ended. */
  checks: number;
  last_check_at: number | null;
  /** The last ended check's status. */
  last_status: string | null;
  last_error: string | null;
  consecutive_failures: number;
  created_at: number;
  updated_at: number;
}

/** One run of a monitor; its id is its job's. */
export interface MonitorChecksTable {
  id: string;
  monitor_id: string;
  user_id: string;
  /** The tick it ran for. */
  scheduled_at: number;
  /** When the tick was claimed and its job created. */
  started_at: number;
  finished_at: number | null;
  /** running, completed, failed, cancelled. */
  status: string;
  /** JSON: each page's URL, change status, cost and error; null while running. */
  pages: string | null;
  /** Pages new (after the first check), changed or removed. */
  changed: number;
  cost_micros: number;
  error: string | null;
}

export interface Tables {
  users: UsersTable;
  api_keys: ApiKeysTable;
  usage_ledger: UsageLedgerTable;
  browser_sessions: BrowserSessionsTable;
  browser_profiles: BrowserProfilesTable;
  jobs: JobsTable;
  job_items: JobItemsTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_secrets: WebhookSecretsTable;
  page_cache: PageCacheTable;
  page_snapshots: PageSnapshotsTable;
  monitors: MonitorsTable;
  monitor_checks: MonitorChecksTable;
}

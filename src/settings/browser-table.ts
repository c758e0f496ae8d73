import { SESSION_BROWSERS } from './choices.ts';
import { bool, choice, int, text } from './kinds.ts';
import { MIB, S } from './units.ts';

const MIN = 60 * S;
const HOUR = 60 * MIN;

/** The browsers the service runs: live sessions, the Chromium binaries, the scraping pools. */
export const BROWSER_SETTINGS = {
  sessions: {
    defaultBrowser: choice('WEBDATA_DEFAULT_BROWSER', {
      group: 'Remote browser sessions',
      options: SESSION_BROWSERS,
      default: 'chromium',
      doc: 'session engine when a create names none (`chromium` and `firefox` run in this build; `camoufox` runs when `WEBDATA_CAMOUFOX` names its binary; `lightpanda` is refused per request)',
    }),
    idleTimeoutMs: int('WEBDATA_SESSION_IDLE_TIMEOUT_MS', {
      group: 'Remote browser sessions',
      default: 5 * MIN,
      min: 500,
      max: 24 * HOUR,
      doc: 'close a session after this long without CDP or VNC traffic',
    }),
    maxLifetimeMs: int('WEBDATA_SESSION_MAX_LIFETIME_MS', {
      group: 'Remote browser sessions',
      default: HOUR,
      min: S,
      max: 7 * 24 * HOUR,
      doc: 'close a session this long after it was created or resumed',
    }),
    maxSessions: int('WEBDATA_SESSIONS_MAX', {
      group: 'Remote browser sessions',
      default: 8,
      min: 1,
      max: 1_000,
      doc: 'active sessions this instance runs at once (429 beyond)',
    }),
    maxSessionsPerUser: int('WEBDATA_SESSIONS_MAX_PER_USER', {
      group: 'Remote browser sessions',
      default: 3,
      min: 1,
      max: 1_000,
      doc: 'active sessions one user may have on this instance (429 beyond)',
    }),
    warmSpares: int('WEBDATA_SESSION_WARM_SPARES', {
      group: 'Remote browser sessions',
      default: 1,
      min: 0,
      max: 8,
      doc: 'headless browsers of each engine kept launched, once a first session of that engine was made, so a create need not wait for one',
    }),
    fileMaxBytes: int('WEBDATA_SESSION_FILE_MAX_BYTES', {
      group: 'Remote browser sessions',
      default: 100 * MIB,
      min: 1,
      max: 16 * 1024 * MIB,
      doc: 'largest file one upload to a session may put in its files folder (413 beyond)',
    }),
    filesMax: int('WEBDATA_SESSION_FILES_MAX', {
      group: 'Remote browser sessions',
      default: 100,
      min: 1,
      max: 100_000,
      doc: "files a session's folder may hold, uploads and downloads together; an upload beyond is refused with 409",
    }),
    filesQuotaBytes: int('WEBDATA_SESSION_FILES_QUOTA_BYTES', {
      group: 'Remote browser sessions',
      default: 1024 * MIB,
      min: 1,
      max: 1024 * 1024 * MIB,
      doc: "bytes of session files one key may keep, in every session's folder and saved with closed sessions (413 for an upload beyond)",
    }),
    recordingMaxBytes: int('WEBDATA_SESSION_RECORDING_MAX_BYTES', {
      group: 'Remote browser sessions',
      default: 256 * MIB,
      min: 1024,
      max: 64 * 1024 * MIB,
      doc: 'largest recording (rrweb events) one session with `record: true` keeps; later events are left out and the recording marked truncated',
    }),
    recordingRetentionMs: int('WEBDATA_SESSION_RECORDING_RETENTION_MS', {
      group: 'Remote browser sessions',
      default: 7 * 24 * HOUR,
      min: MIN,
      max: 365 * 24 * HOUR,
      doc: 'a session recording is removed once this long has passed since its last event (checked hourly and at start)',
    }),
    replayTokenTtlMs: int('WEBDATA_SESSION_REPLAY_TOKEN_TTL_MS', {
      group: 'Remote browser sessions',
      default: HOUR,
      min: 10 * S,
      max: 7 * 24 * HOUR,
      doc: 'how long the replay token a recording answer returns opens `/replay` and the recording without the API key',
    }),
  },
  /** The two Chromium binaries, shared by the scraping pools and the sessions. */
  chromium: {
    headless: text('WEBDATA_CHROMIUM_HEADLESS', {
      group: 'Browsers',
      default: '/usr/bin/chromium-headless-shell',
      doc: 'headless browser binary: headless sessions and the `browser` scraping pool',
    }),
    visible: text('WEBDATA_CHROMIUM_VISIBLE', {
      group: 'Browsers',
      default: '/usr/bin/chromium',
      doc: 'full browser binary: visible sessions and the `browser-stealth` pool (each run headful under its own Xvfb)',
    }),
  },
  /** Firefox-family binaries for sessions (driven over WebDriver BiDi). */
  firefox: {
    firefox: text('WEBDATA_FIREFOX', {
      group: 'Browsers',
      default: '/usr/bin/firefox-esr',
      doc: 'Firefox binary: sessions with `browser: "firefox"` (Debian\'s `firefox-esr`)',
    }),
    camoufox: text('WEBDATA_CAMOUFOX', {
      group: 'Browsers',
      default: '',
      doc: 'a Camoufox binary; when set, sessions with `browser: "camoufox"` run it as they run Firefox (its own sandbox, policy and egress proxy, WebDriver BiDi); unset, `camoufox` is refused with a 400',
    }),
  },
  browser: {
    poolSize: int('WEBDATA_BROWSER_POOL_SIZE', {
      group: 'Browsers',
      default: 2,
      min: 1,
      max: 32,
      doc: 'headless browsers kept running',
    }),
    firefoxPoolSize: int('WEBDATA_FIREFOX_POOL_SIZE', {
      group: 'Browsers',
      default: 1,
      min: 1,
      max: 8,
      doc: 'Firefox browsers (`WEBDATA_FIREFOX`) kept running for the `browser-firefox` rung once the first is needed',
    }),
    stealthPoolSize: int('WEBDATA_STEALTH_POOL_SIZE', {
      group: 'Browsers',
      default: 1,
      min: 1,
      max: 8,
      doc: 'stealth browsers kept running once the first is needed',
    }),
    maxPages: int('WEBDATA_BROWSER_MAX_PAGES', {
      group: 'Browsers',
      default: 8,
      min: 1,
      max: 256,
      doc: 'pages open at once per pool; further requests queue',
    }),
    pagesPerKey: int('WEBDATA_BROWSER_PAGES_PER_KEY', {
      group: 'Browsers',
      default: (earlier) =>
        Math.max(1, Math.ceil((Number(earlier('WEBDATA_BROWSER_MAX_PAGES')) * 3) / 4)),
      shownDefault: 'three quarters of `WEBDATA_BROWSER_MAX_PAGES`',
      min: 1,
      max: 256,
      doc: 'pages of a pool one API key may hold at once, so the others always find one; waiting keys are served in turn',
    }),
    queueWaitMs: int('WEBDATA_BROWSER_QUEUE_WAIT_MS', {
      group: 'Browsers',
      default: 10 * S,
      min: 0,
      max: 120 * S,
      doc: 'longest a request queues for a page before 429 with `Retry-After`',
    }),
    recycleAfterPages: int('WEBDATA_BROWSER_RECYCLE_PAGES', {
      group: 'Browsers',
      default: 200,
      min: 1,
      max: 100_000,
      doc: 'a browser is replaced after serving this many pages',
    }),
    warm: bool('WEBDATA_BROWSER_WARM', {
      group: 'Browsers',
      default: false,
      doc: 'launch the headless pool at start instead of on first use',
    }),
    maxLoadBytes: int('WEBDATA_BROWSER_MAX_LOAD_BYTES', {
      group: 'Browsers',
      default: 64 * MIB,
      min: 64 * 1024,
      max: 4 * 1024 * MIB,
      doc:
        'bytes one browser page (its context: document, subresources, TLS tunnels) may bring in through the egress proxy; its ' +
        'requests are stopped beyond it. Each plain-HTTP response a browser loads is also cut at `WEBDATA_MAX_PAGE_BYTES`',
    }),
    artifactTtlHours: int('WEBDATA_ARTIFACT_TTL_HOURS', {
      group: 'Browsers',
      default: 24,
      min: 1,
      max: 24 * 365,
      doc: 'screenshots and PDFs are deleted this long after creation',
    }),
  },
};

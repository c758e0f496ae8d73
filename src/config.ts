import {
  BROWSER_SETTINGS,
  CLIENT_SETTINGS,
  ConfigError,
  type Env,
  JOB_SETTINGS,
  readSettings,
  SEARCH_LLM_SETTINGS,
  SERVICE_SETTINGS,
  type Setting,
  settingsOf,
  type Values,
} from './settings/index.ts';

/**
 * Every setting of the service as one table (src/settings/): the typed config below is derived
 * from it, the loader reads it, and the configuration docs are generated from it.
 */
export const SETTINGS = {
  ...SERVICE_SETTINGS,
  ...JOB_SETTINGS,
  ...SEARCH_LLM_SETTINGS,
  ...BROWSER_SETTINGS,
};

/** Every setting of the service, read and validated once at start-up. */
export type Config = Values<typeof SETTINGS>;
export type SearchSettings = Config['search'];
export type LlmSettings = Config['llm'];
export type SummarySettings = Config['summary'];
export type ExtractSettings = Config['extract'];
export type SessionConfig = Config['sessions'];
export type ChromiumPaths = Config['chromium'];
export type FirefoxPaths = Config['firefox'];
export type BrowserConfig = Config['browser'];

/** Rules that span settings; each names the variables it is about. */
const CHECKS: ((config: Config) => string | undefined)[] = [
  (c) =>
    Boolean(c.search.googleCseKey) !== Boolean(c.search.googleCseCx)
      ? 'GOOGLE_CSE_KEY and GOOGLE_CSE_CX must be set together'
      : undefined,
  (c) =>
    !c.databaseUrl && !c.runWorker
      ? 'WEBDATA_WORKER=false needs DATABASE_URL=postgres://... and `webdata worker` processes; with SQLite, serve runs the jobs'
      : undefined,
];

export function loadConfig(env: Env = process.env): Config {
  const config = readSettings(SETTINGS, env);
  for (const check of CHECKS) {
    const problem = check(config);
    if (problem) throw new ConfigError(problem);
  }
  return config;
}

/** Every variable the project reads (the service's and the client's), in the order the docs list them. */
export function documentedSettings(): Setting<unknown>[] {
  return settingsOf({ ...SETTINGS, client: CLIENT_SETTINGS });
}

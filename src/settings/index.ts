export { BROWSER_SETTINGS } from './browser-table.ts';
export {
  LLM_APIS,
  type LlmApi,
  SEARCH_PROVIDERS,
  SESSION_BROWSERS,
  type SearchProviderName,
} from './choices.ts';
export { CLIENT_SETTINGS } from './client-table.ts';
export { isoCountry } from './countries.ts';
export { essentialSettings, replaceMarked, settingsReference } from './docs.ts';
export { JOB_SETTINGS } from './job-table.ts';
export { ConfigError, type Env, GROUPS, type Group, type Setting } from './kinds.ts';
export { DEFAULT_PROXY_ROUTE, type ProxyTable, parseProxyUrls } from './proxy-table.ts';
export { SEARCH_LLM_SETTINGS } from './search-llm-table.ts';
export { SERVICE_SETTINGS } from './service-table.ts';
export { readSettings, type SettingTree, settingsOf, type Values } from './tree.ts';

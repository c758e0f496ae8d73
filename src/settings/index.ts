export { ConfigError, GROUPS, type Env, type Group, type Setting } from './kinds.ts';
export { ENGINE_NAMES, LLM_APIS, SESSION_BROWSERS, type EngineName, type LlmApi } from './choices.ts';
export { isoCountry } from './countries.ts';
export { DEFAULT_PROXY_ROUTE, parseProxyUrls, type ProxyTable } from './proxy-table.ts';
export { readSettings, settingsOf, type SettingTree, type Values } from './tree.ts';
export { SERVICE_SETTINGS } from './service-table.ts';
export { ENGINE_SETTINGS } from './engine-table.ts';
export { CLIENT_SETTINGS } from './client-table.ts';
export { essentialSettings, replaceMarked, settingsReference } from './docs.ts';

export { ACTION_TIMEOUT_MS, type ActionEnv, runAction } from './actions.ts';
export { BrowserEngine, type BrowserMethod, type PageEnv } from './browser-engine.ts';
export { type DownloadedFile, readDownload } from './download.ts';
export { BrowserBusyError, callerText, DownloadError, NavigationError } from './errors.ts';
export { desktopChrome } from './fingerprint.ts';
export { FIREFOX_ENV, firefoxPrefs } from './firefox-prefs.ts';
export { PRESENTATION_FLAGS, QUIET_FEATURES, sharedFlags } from './flags.ts';
export { openUrl, setHtml } from './navigate.ts';
export {
  findProcessesYielding,
  type Group,
  groupPids,
  killGroup,
  type ProcessInfo,
  type ProcessStat,
  processStat,
  processTree,
  pssBytes,
  spawnGroup,
} from './processes.ts';
export { startXvfb, type Xvfb, type XvfbOptions } from './xvfb.ts';

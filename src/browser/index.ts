export { BrowserEngine, type BrowserEngineOptions, type BrowserMethod, type PageEnv, type PageRun } from './engine.ts';
export { runAction, ACTION_TIMEOUT_MS, WAIT_FOR_SELECTOR_DEFAULT_MS, type Action, type ActionEnv } from './actions.ts';
export { openUrl, goBack, setHtml, type Guard } from './navigate.ts';
export { ActionError, BrowserBusyError, NavigationError } from './errors.ts';
export { findProcessesYielding, groupPids, killGroup, processStat, processTree, pssBytes, spawnGroup, type Group, type ProcessInfo, type ProcessStat } from './processes.ts';
export { startXvfb, type Xvfb, type XvfbOptions } from './xvfb.ts';
export type { PoolStats } from './pool.ts';
export { sharedFlags, QUIET_FEATURES } from './flags.ts';
export { BlockedPageError, PageNotReadyError, settledContent, trackDocument, type ContentJudge, type DocumentState, type SettleOptions } from './settle.ts';

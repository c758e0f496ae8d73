export { BrowserEngine, type BrowserMethod, type PageEnv } from './engine.ts';
export { runAction, ACTION_TIMEOUT_MS, type ActionEnv } from './actions.ts';
export { openUrl, setHtml } from './navigate.ts';
export { BrowserBusyError } from './errors.ts';
export { findProcessesYielding, groupPids, killGroup, processStat, processTree, pssBytes, spawnGroup, type Group, type ProcessInfo, type ProcessStat } from './processes.ts';
export { startXvfb, type Xvfb, type XvfbOptions } from './xvfb.ts';
export { sharedFlags, QUIET_FEATURES } from './flags.ts';
export { BlockedPageError, PageNotReadyError, settledContent, trackDocument, type ContentJudge, type DocumentState } from './settle.ts';

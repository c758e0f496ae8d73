export { bridgeBrowser, bridgeVnc } from './bridge.ts';
export { DEFAULT_HEIGHT, DEFAULT_WIDTH } from './launcher.ts';
export { SessionManager } from './manager.ts';
export { PROFILE_NAME_PATTERN } from './profiles.ts';
export { markedGroups } from './reap.ts';
export { type LiveSession, SessionError, type SessionRecording } from './types.ts';

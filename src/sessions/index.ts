export { SessionManager, KNOWN_BROWSERS } from './manager.ts';
export { DEFAULT_WIDTH, DEFAULT_HEIGHT } from './launcher.ts';
export { SessionError, type CreateOptions, type SessionCreated, type SessionDetails, type PublicSession, type LiveSession, type CloseReason } from './types.ts';
export { bridgeCdp, bridgeVnc } from './bridge.ts';
export { markedGroups } from './reap.ts';
export { groupPids } from '../browser/index.ts';

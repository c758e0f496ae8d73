export { SessionManager } from './manager.ts';
export { DEFAULT_WIDTH, DEFAULT_HEIGHT } from './launcher.ts';
export { SessionError, type LiveSession } from './types.ts';
export { bridgeCdp, bridgeVnc } from './bridge.ts';
export { markedGroups } from './reap.ts';
export { groupPids } from '../browser/index.ts';

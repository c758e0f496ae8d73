export {
  SessionManager,
  SessionError,
  KNOWN_BROWSERS,
  DEFAULT_WIDTH,
  DEFAULT_HEIGHT,
  type CreateOptions,
  type SessionCreated,
  type SessionDetails,
  type PublicSession,
  type LiveSession,
  type CloseReason,
} from './manager.ts';
export { bridgeCdp, bridgeVnc } from './bridge.ts';
export { markedGroups } from './reap.ts';
export { groupPids } from './processes.ts';

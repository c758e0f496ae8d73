import { newToken } from './tokens.ts';
import type { LiveSession } from './types.ts';

/** A session just launched, with a new token and nothing visited yet. */
export function newLiveSession(
  s: Omit<
    LiveSession,
    | 'token'
    | 'tokenHash'
    | 'lastActivityAt'
    | 'persistedActivityAt'
    | 'lastUrl'
    | 'hasStorageState'
    | 'origins'
    | 'ownTargets'
    | 'connections'
    | 'vnc'
    | 'recorder'
    | 'video'
    | 'closedAt'
    | 'closing'
  >,
): LiveSession {
  const { token, hash } = newToken();
  return {
    ...s,
    token,
    tokenHash: hash,
    lastActivityAt: s.startedAt,
    persistedActivityAt: s.startedAt,
    lastUrl: null,
    hasStorageState: false,
    origins: new Set(),
    ownTargets: new Set(),
    connections: new Set(),
    vnc: undefined,
    recorder: undefined,
    video: undefined,
    closedAt: undefined,
    closing: undefined,
  };
}

/**
 * Follows the browser's targets (visited origins, for the saved state; the last URL) and calls
 * `onClose` when its control connection closes, which is how a dead browser is noticed.
 */
export async function watchTargets(live: LiveSession, onClose: () => void): Promise<void> {
  const cdp = live.running.control;
  const onTarget = (
    { targetInfo }: { targetInfo: { targetId: string; type: string; url: string } },
    sessionId?: string,
  ) => {
    // Discovery is the control connection's own (no session); a client's discovery reaches only it.
    if (sessionId || live.ownTargets.has(targetInfo.targetId) || !/^https?:/.test(targetInfo.url))
      return;
    live.origins.add(new URL(targetInfo.url).origin);
    if (targetInfo.type === 'page') live.lastUrl = targetInfo.url;
  };
  cdp.on('Target.targetCreated', onTarget);
  cdp.on('Target.targetInfoChanged', onTarget);
  cdp.once('close', onClose);
  await cdp.send('Target.setDiscoverTargets', { discover: true });
}

import { join } from 'node:path';
import { groupPids } from '../browser/index.ts';
import type { SessionRow } from '../store/index.ts';
import type { BidiConnection } from './bidi.ts';
import { newToken } from './tokens.ts';
import { type LiveSession, SessionError } from './types.ts';
import { VncPipeline } from './vnc.ts';

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
 * Follows the browser's pages (visited origins, for the saved state; the last URL) and calls
 * `onClose` when its control connection closes, which is how a dead browser is noticed.
 */
export async function watchBrowser(live: LiveSession, onClose: () => void): Promise<void> {
  if (live.running.family === 'firefox') return watchFirefox(live, onClose);
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

/**
 * A Firefox session's last URL, from the loads its client's subscription brings: the service
 * subscribes to nothing itself, as the browser's one BiDi session is shared with the client
 * (bidi-bridge.ts), which would then be sent events it never asked for.
 */
function watchFirefox(live: LiveSession, onClose: () => void): void {
  const bidi = live.running.control as BidiConnection;
  bidi.on('event', (_text: string, method: string, params: { url?: unknown }) => {
    if (
      method === 'browsingContext.load' &&
      typeof params.url === 'string' &&
      /^https?:/.test(params.url)
    )
      live.lastUrl = params.url;
  });
  bidi.once('close', onClose);
}

/** The stored row of a session just created on the instance at `instanceUrl`. */
export function newSessionRow(live: LiveSession, instanceUrl: string): SessionRow {
  return {
    id: live.id,
    user_id: live.userId,
    status: 'active',
    browser: live.browser,
    headless: live.headless ? 1 : 0,
    proxy: live.proxy ? 1 : 0,
    width: live.width,
    height: live.height,
    token_hash: live.tokenHash.toString('hex'),
    instance_url: instanceUrl,
    storage_state: null,
    last_url: null,
    close_reason: null,
    created_at: live.createdAt,
    started_at: live.startedAt,
    closed_at: null,
    last_activity_at: live.startedAt,
    billed_micros: 0,
  };
}

/** Process ids of a live session's browser, display, VNC server and video capture. */
export async function liveProcessIds(live: LiveSession): Promise<number[]> {
  const groups = live.running.groups.map((g) => g.pgid);
  if (live.vnc?.pgid) groups.push(live.vnc.pgid);
  if (live.video) groups.push(live.video.pgid);
  return (await Promise.all(groups.map((g) => groupPids(g)))).flat();
}

/**
 * The live view of a visible session: its x11vnc pipeline on the session's display, started by
 * the first viewer and shared by the next; resolves to the pipeline's socket once it listens.
 */
export function openLiveView(live: LiveSession, env: NodeJS.ProcessEnv): Promise<string> {
  const display = live.running.display;
  if (!display)
    throw new SessionError(
      'bad-request',
      'live view is only available for visible (headless: false) sessions',
    );
  live.vnc ??= new VncPipeline(display.display, join(live.running.dir, 'vnc.sock'), {
    ...env,
    DISPLAY: display.display,
  });
  return live.vnc.acquire();
}

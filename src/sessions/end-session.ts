import type { FastifyBaseLogger } from 'fastify';
import type { LedgerStore, SessionStore } from '../store/index.ts';
import { chargePeriod, periodMicros } from './billing.ts';
import { saveBrowserState } from './browser-state.ts';
import type { SessionFiles } from './files.ts';
import type { Profiles } from './profiles.ts';
import type { StorageState } from './state.ts';
import type { CloseReason, LiveSession } from './types.ts';

const SAVE_TIMEOUT_MS = 10_000;
/** How long a browser may take to exit and write its profile before it is killed. */
const EXIT_TIMEOUT_MS = 10_000;

/**
 * Ends a session: its clients and live view are cut off, its storage saved (when the browser is
 * still there to ask) and its files folder copied to the data folder, its named profile saved
 * (when asked, once the browser has exited) and given back, the browser disposed of, and the close recorded with the period's charge,
 * once: a session another close already recorded is not charged again.
 */
export async function endSession(
  live: LiveSession,
  reason: CloseReason,
  deps: { store: SessionStore; ledger: LedgerStore; files: SessionFiles; profiles: Profiles },
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
): Promise<void> {
  const closedAt = Date.now();
  live.closedAt = closedAt;
  for (const end of live.connections) end();
  await live.vnc?.close();
  // Before the state save, whose own pages are not the session's to record.
  await Promise.all([live.recorder?.stop(), live.video?.stop()]);
  let state: StorageState | undefined;
  if (!live.running.control.closed) {
    try {
      state = await saveBrowserState(SAVE_TIMEOUT_MS, live.running, live.origins, live.ownTargets);
    } catch (err) {
      log.warn({ err, sessionId: live.id }, 'session state could not be saved');
    }
  }
  try {
    await deps.files.save(live.userId, live.id, live.running.files);
  } catch (err) {
    log.warn({ err, sessionId: live.id }, 'session files could not be saved');
  }
  if (live.profile) {
    const { name, save } = live.profile;
    const alive = !live.running.control.closed;
    // A browser that died mid-session may have left its profile half written: it is not saved.
    if (save && alive) await live.running.exit(EXIT_TIMEOUT_MS);
    try {
      await deps.profiles.giveBack(
        live.userId,
        name,
        live.id,
        save && alive ? live.running.profile : undefined,
      );
    } catch (err) {
      log.warn({ err, sessionId: live.id, profile: name }, 'session profile could not be saved');
    }
  }
  await live.running.dispose();
  const ms = closedAt - live.startedAt;
  const micros = periodMicros(ms, live.headless);
  try {
    const closed = await deps.store.closeIfActive(live.id, {
      close_reason: reason,
      closed_at: closedAt,
      token_hash: null,
      last_url: live.lastUrl,
      last_activity_at: live.lastActivityAt,
      billed_micros: live.billedMicros + micros,
      ...(state ? { storage_state: JSON.stringify(state) } : {}),
    });
    if (closed) await chargePeriod(deps.ledger, live.userId, live.id, ms, micros);
  } catch (err) {
    log.error({ err, sessionId: live.id }, 'session close could not be recorded');
  }
}

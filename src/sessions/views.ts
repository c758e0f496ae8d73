import { microsToUsd } from '../billing/index.ts';
import type { SessionRow } from '../store/index.ts';
import { costPerMinUsd, periodMicros } from './billing.ts';
import type {
  CloseReason,
  LiveSession,
  PublicSession,
  SessionCreated,
  SessionDetails,
} from './types.ts';

/** How sessions look to API users, from a live session or from its stored row. */

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The session's URLs; without a token they name the session but open nothing. */
export function sessionUrls(
  publicUrl: string,
  id: string,
  token: string | undefined,
  headless: boolean,
): { wsUrl: string; liveViewUrl: string | null } {
  const wsBase = publicUrl.replace(/^http/, 'ws');
  const query = `sessionId=${encodeURIComponent(id)}${token ? `&token=${token}` : ''}`;
  return {
    wsUrl: `${wsBase}/browser-sandbox-ws?${query}`,
    liveViewUrl: headless ? null : `${publicUrl}/live-view?${query}`,
  };
}

export function createdView(publicUrl: string, live: LiveSession): SessionCreated {
  return {
    sessionId: live.id,
    ...sessionUrls(publicUrl, live.id, live.token, live.headless),
    browser: live.browser,
    createdAt: iso(live.createdAt),
    width: live.width,
    height: live.height,
    costPerMin: costPerMinUsd(live.headless),
  };
}

export function liveDetails(publicUrl: string, live: LiveSession): SessionDetails {
  const until = live.closedAt ?? Date.now();
  return {
    sessionId: live.id,
    status: 'active',
    width: live.width,
    height: live.height,
    headless: live.headless,
    proxy: live.proxy,
    browser: live.browser,
    ...sessionUrls(publicUrl, live.id, live.token, live.headless),
    totalCost: microsToUsd(live.billedMicros + periodMicros(until - live.startedAt, live.headless)),
    hasStorageState: live.hasStorageState,
    lastUrl: live.lastUrl,
    closeReason: null,
    closedAt: null,
    createdAt: iso(live.createdAt),
    lastActivityAt: iso(live.lastActivityAt),
  };
}

/** Details from the store: a closed session, or one running on another instance (no token then). */
export function rowDetails(publicUrl: string, row: SessionRow): SessionDetails {
  const headless = row.headless === 1;
  const active = row.status === 'active';
  const accrued = active ? periodMicros(Date.now() - row.started_at, headless) : 0;
  return {
    sessionId: row.id,
    status: active ? 'active' : 'closed',
    width: row.width,
    height: row.height,
    headless,
    proxy: row.proxy === 1,
    browser: row.browser,
    ...sessionUrls(publicUrl, row.id, undefined, headless),
    totalCost: microsToUsd(row.billed_micros + accrued),
    hasStorageState: row.storage_state !== null,
    lastUrl: row.last_url,
    closeReason: (row.close_reason as CloseReason | null) ?? null,
    closedAt: row.closed_at === null ? null : iso(row.closed_at),
    createdAt: iso(row.created_at),
    lastActivityAt: iso(row.last_activity_at),
  };
}

export function publicView(live: LiveSession): PublicSession {
  return {
    sessionId: live.id,
    browser: live.browser,
    headless: live.headless,
    width: live.width,
    height: live.height,
    createdAt: iso(live.createdAt),
    lastActivityAt: iso(live.lastActivityAt),
  };
}

/**
 * Remote browser session shapes of the webdata API (docs/spec.md), written by hand so the package depends on
 * nothing of the server; test/client/openapi-contract.test.ts checks every one against the
 * server's /openapi.json.
 */

export interface SessionRequest {
  width?: number;
  height?: number;
  headless?: boolean;
  /** Engines not installed on the server are refused with 400. */
  browser?: 'chromium' | 'firefox' | 'camoufox' | 'lightpanda';
  proxy?: boolean;
  /** A named profile to run on (one session at a time); `save` writes the browser's profile back at close. */
  profile?: { name: string; save?: boolean };
  /** Record the pages as rrweb events (inputs masked); `video` also records a visible session's display. */
  record?: boolean | { video?: boolean };
}

export interface SessionRecording {
  sessionId: string;
  /** Opens the recording and the replay page without the API key until `expiresAt`. */
  token: string;
  expiresAt: string;
  replayUrl: string;
  bytes: number;
  truncated: boolean;
  /** rrweb events of every page; `pageId` says which tab an event is of. */
  events: { type: number; timestamp: number; pageId: number; data: unknown }[];
}

export interface SessionCreated {
  sessionId: string;
  wsUrl: string;
  liveViewUrl: string | null;
  browser: string;
  createdAt: string;
  width: number;
  height: number;
  costPerMin: number;
}

export interface SessionDetails {
  sessionId: string;
  status: 'active' | 'closed';
  width: number;
  height: number;
  headless: boolean;
  proxy: boolean;
  browser: string;
  wsUrl: string;
  liveViewUrl: string | null;
  totalCost: number;
  hasStorageState: boolean;
  lastUrl: string | null;
  closeReason: 'manual' | 'timeout' | 'error' | null;
  closedAt: string | null;
  createdAt: string;
  lastActivityAt: string;
}

import type { RunningBrowser } from './launcher.ts';
import type { Recorder } from './recording.ts';
import type { VideoCapture } from './video.ts';
import type { VncPipeline } from './vnc.ts';

export type CloseReason = 'manual' | 'timeout' | 'error';

export interface CreateOptions {
  width: number;
  height: number;
  headless: boolean;
  proxy: boolean;
  browser?: string;
  /** A named profile to run on, saved back at close when `save`. */
  profile?: SessionProfile;
  /** Record the session's pages as rrweb events (recording.ts), and with `video` its display (video.ts). */
  record?: { video: boolean };
}

export interface SessionProfile {
  name: string;
  save: boolean;
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
  closeReason: CloseReason | null;
  closedAt: string | null;
  createdAt: string;
  lastActivityAt: string;
}

export interface PublicSession {
  sessionId: string;
  browser: string;
  headless: boolean;
  width: number;
  height: number;
  createdAt: string;
  lastActivityAt: string;
}

/** What a recording's read answers besides its events. */
export interface SessionRecording {
  sessionId: string;
  /** Opens the recording and the replay page without the API key until `expiresAt`. */
  token: string;
  expiresAt: string;
  replayUrl: string;
  bytes: number;
  truncated: boolean;
  events: AsyncIterable<string>;
}

/** A refusal the HTTP layer turns into its status code. */
export class SessionError extends Error {
  readonly kind:
    | 'bad-request'
    | 'not-found'
    | 'conflict'
    | 'too-large'
    | 'capacity'
    | 'unavailable';
  readonly field?: string;
  readonly retryAfterSeconds?: number;

  constructor(
    kind: SessionError['kind'],
    message: string,
    opts: { field?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.kind = kind;
    this.field = opts.field;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

/** A session whose browser runs in this process. */
export interface LiveSession {
  readonly id: string;
  readonly userId: string;
  readonly browser: string;
  readonly headless: boolean;
  readonly proxy: boolean;
  readonly width: number;
  readonly height: number;
  readonly createdAt: number;
  readonly startedAt: number;
  readonly billedMicros: number;
  readonly tokenHash: Buffer;
  readonly token: string;
  readonly running: RunningBrowser;
  /** The named profile it holds, if any (profiles.ts). */
  readonly profile: SessionProfile | undefined;
  lastActivityAt: number;
  persistedActivityAt: number;
  lastUrl: string | null;
  hasStorageState: boolean;
  readonly origins: Set<string>;
  /** Targets the service opened itself (storage save/restore); never reported as visited. */
  readonly ownTargets: Set<string>;
  /** Ends the client connections proxied to this session. */
  readonly connections: Set<() => void>;
  vnc: VncPipeline | undefined;
  /** Its pages' recorder, when the session is recorded. */
  recorder: Recorder | undefined;
  /** Its display's video, when a visible session is recorded with `video`. */
  video: VideoCapture | undefined;
  closedAt: number | undefined;
  closing: Promise<void> | undefined;
}

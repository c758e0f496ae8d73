import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { Timestamp } from '../../contract/index.ts';
import { PROFILE_NAME_PATTERN } from '../../sessions/index.ts';

export const ProfileName = Type.String({
  pattern: PROFILE_NAME_PATTERN,
  description:
    'Letters, digits, dot, dash and underscore, starting with a letter or digit; at most 64',
});

export const SessionCreateBody = Type.Object(
  {
    width: Type.Optional(
      Type.Integer({ minimum: 800, maximum: 3840, description: 'Viewport width; default 1280' }),
    ),
    height: Type.Optional(
      Type.Integer({ minimum: 600, maximum: 2160, description: 'Viewport height; default 720' }),
    ),
    headless: Type.Optional(
      Type.Boolean({ description: 'Default true; false runs a visible browser with a live view' }),
    ),
    browser: Type.Optional(
      Type.Union(
        [
          Type.Literal('chromium'),
          Type.Literal('firefox'),
          Type.Literal('camoufox'),
          Type.Literal('lightpanda'),
        ],
        {
          description:
            'Engine; default WEBDATA_DEFAULT_BROWSER (chromium). chromium is driven over CDP, firefox (and camoufox, when configured) over WebDriver BiDi. Engines not installed on the server are refused with 400.',
        },
      ),
    ),
    proxy: Type.Optional(
      Type.Boolean({
        description:
          "Go out through the server's default upstream proxy (the * entry of WEBDATA_PROXY_URLS); default true when one is configured, else false. true without one is refused with 400.",
      }),
    ),
    profile: Type.Optional(
      Type.Object(
        {
          name: ProfileName,
          save: Type.Optional(
            Type.Boolean({
              description:
                "Default false; true saves the browser's user-data folder into the profile at close",
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'Run on a named profile (POST /v1/browser-sandbox/profiles); one session at a time (409 while another holds it)',
        },
      ),
    ),
    record: Type.Optional(
      Type.Union(
        [
          Type.Boolean(),
          Type.Object(
            {
              video: Type.Optional(
                Type.Boolean({
                  description:
                    'Also record the display as video (WebM, GET .../recording.webm once closed); visible sessions only (400 with headless: true)',
                }),
              ),
            },
            { additionalProperties: false },
          ),
        ],
        {
          description:
            'Record the pages as rrweb events (inputs masked), read back with GET .../recording and replayed at /replay; default false',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const SessionCreated = Type.Object({
  sessionId: Type.String(),
  wsUrl: Type.String(),
  liveViewUrl: Type.Union([Type.String(), Type.Null()]),
  browser: Type.String(),
  createdAt: Timestamp,
  width: Type.Number(),
  height: Type.Number(),
  costPerMin: Type.Number(),
});

export const SessionDetails = Type.Object({
  sessionId: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('closed')]),
  width: Type.Number(),
  height: Type.Number(),
  headless: Type.Boolean(),
  proxy: Type.Boolean(),
  browser: Type.String(),
  wsUrl: Type.String(),
  liveViewUrl: Type.Union([Type.String(), Type.Null()]),
  totalCost: Type.Number(),
  hasStorageState: Type.Boolean(),
  lastUrl: Type.Union([Type.String(), Type.Null()]),
  closeReason: Type.Union([
    Type.Literal('manual'),
    Type.Literal('timeout'),
    Type.Literal('error'),
    Type.Null(),
  ]),
  closedAt: Type.Union([Timestamp, Type.Null()]),
  createdAt: Timestamp,
  lastActivityAt: Timestamp,
});

export const SessionList = Type.Object({
  sessions: Type.Array(
    Type.Object({
      sessionId: Type.String(),
      browser: Type.String(),
      headless: Type.Boolean(),
      width: Type.Number(),
      height: Type.Number(),
      createdAt: Timestamp,
      lastActivityAt: Timestamp,
    }),
  ),
  count: Type.Number(),
  capacity: Type.Number(),
  warmSpares: Type.Number(),
});

export const SessionFileParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 255 }),
});

export const SessionFile = Type.Object({
  name: Type.String(),
  size: Type.Number({ description: 'Bytes' }),
  modifiedAt: Timestamp,
  path: Type.Union([Type.String(), Type.Null()], {
    description:
      "The file's path in the session's browser, for Playwright's setInputFiles or Puppeteer's uploadFile; null while the session is closed",
  }),
});

/** A file's bytes, streamed as they are. */
export const SessionFileBytes = Type.Unsafe<Readable>({ type: 'string', format: 'binary' });

export const SessionFileList = Type.Object({ files: Type.Array(SessionFile) });

export const Deleted = Type.Object({ success: Type.Literal(true) });

export const ProfileBody = Type.Object({ name: ProfileName }, { additionalProperties: false });

export const ProfileParams = Type.Object({ name: ProfileName });

export const Profile = Type.Object({
  name: Type.String(),
  createdAt: Timestamp,
  savedAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When a session last saved into it; null until one did',
  }),
  inUse: Type.Boolean({ description: 'A session holds it now' }),
});

export const ProfileList = Type.Object({ profiles: Type.Array(Profile) });

export const SessionRecording = Type.Object({
  sessionId: Type.String(),
  token: Type.String({
    description: 'Opens the recording and the replay page without the API key until expiresAt',
  }),
  expiresAt: Timestamp,
  replayUrl: Type.String(),
  bytes: Type.Integer({ description: 'Size of the stored events' }),
  truncated: Type.Boolean({
    description:
      'The recording reached WEBDATA_SESSION_RECORDING_MAX_BYTES; later events were left out',
  }),
  events: Type.Array(
    Type.Object(
      {
        type: Type.Integer({
          description: 'rrweb event type (2: full snapshot, 3: incremental, 4: meta, 5: custom)',
        }),
        timestamp: Type.Number(),
        pageId: Type.Integer({
          description: 'The page (tab) of the session the event is of, from 1',
        }),
        data: Type.Unknown(),
      },
      { additionalProperties: true },
    ),
    {
      description:
        'rrweb events of every page, in the order each page recorded them; pageId says which page (tab) an event is of',
    },
  ),
});

export const ReplayQuery = Type.Object({
  sessionId: Type.String({ minLength: 1, maxLength: 100 }),
  token: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'The replay token of GET .../recording, or the API key',
  }),
});

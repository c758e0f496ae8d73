import type { RunnableBrowser } from './browsers.ts';
import { type CreateOptions, SessionError } from './types.ts';

/**
 * Refuses, with a 400 naming the field, a create asking what its engine or this server cannot
 * give: video of a session with no display, an upstream proxy none is configured for, and on
 * Firefox-family browsers a named profile (profiles are Chromium user-data folders) or a recording
 * (the recorder runs in an isolated world Chromium's DevTools protocol makes).
 */
export function refuseUnfit(
  opts: CreateOptions,
  engine: RunnableBrowser,
  proxyAvailable: boolean,
): void {
  if (opts.record?.video && opts.headless)
    throw new SessionError(
      'bad-request',
      'video needs a visible session (headless: false): it is taken from its display',
      { field: 'record.video' },
    );
  if (opts.proxy && !proxyAvailable)
    throw new SessionError(
      'bad-request',
      'no default upstream proxy is configured on this server (WEBDATA_PROXY_URLS has no * entry)',
      { field: 'proxy' },
    );
  if (engine.family !== 'firefox') return;
  if (opts.profile)
    throw new SessionError(
      'bad-request',
      `profiles hold Chromium user-data folders; a ${engine.name} session cannot use one`,
      { field: 'profile' },
    );
  if (opts.record)
    throw new SessionError(
      'bad-request',
      `recording is available for chromium sessions; a ${engine.name} session cannot be recorded`,
      { field: 'record' },
    );
}

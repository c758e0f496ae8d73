import type { RunnableBrowser } from './browsers.ts';
import { type CreateOptions, SessionError } from './types.ts';

/**
 * Refuses, with a 400 naming the field, a create asking what its browser or this server cannot
 * give: video of a session with no display, an upstream proxy none is configured for, and on
 * Firefox-family browsers a named profile (profiles are Chromium user-data folders).
 */
export function refuseUnfit(
  opts: CreateOptions,
  runnable: RunnableBrowser,
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
  if (runnable.family === 'firefox' && opts.profile)
    throw new SessionError(
      'bad-request',
      `profiles hold Chromium user-data folders; a ${runnable.name} session cannot use one`,
      { field: 'profile' },
    );
}

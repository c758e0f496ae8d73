import { SessionError } from './types.ts';

/** Engines this build can run. camoufox and lightpanda are named by the spec but not installed here. */
const RUNNABLE_BROWSERS = ['chromium'];

/** `browser` when this build runs it; else a 400 naming the field and what it can run. */
export function runnableBrowser(browser: string): string {
  if (!RUNNABLE_BROWSERS.includes(browser))
    throw new SessionError(
      'bad-request',
      `${browser} is not available on this server; available: ${RUNNABLE_BROWSERS.join(', ')}`,
      { field: 'browser' },
    );
  return browser;
}

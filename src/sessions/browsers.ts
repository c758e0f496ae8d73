import { accessSync, constants } from 'node:fs';
import type { ChromiumPaths, FirefoxPaths } from '../config.ts';
import { SessionError } from './types.ts';

/** The protocol family a session browser belongs to: how it is launched, sandboxed and driven. */
export type BrowserFamilyName = 'chromium' | 'firefox';

export interface RunnableBrowser {
  name: string;
  family: BrowserFamilyName;
  /** The binary, or for Chromium the two (headless shell and full browser) chosen per session. */
  executable: (headless: boolean) => string;
}

function installed(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browsers this build can run, by the name a create gives: Chromium always; Firefox when its
 * binary is installed; Camoufox (a Firefox build) only where an operator names its binary, run
 * the way Firefox is. lightpanda is named by the spec but not run here. Looked up once, when the
 * session manager is made, not on every create.
 */
export function runnableBrowsers(
  chromium: ChromiumPaths,
  firefox: FirefoxPaths,
): RunnableBrowser[] {
  const runnables: RunnableBrowser[] = [
    {
      name: 'chromium',
      family: 'chromium',
      executable: (headless) => (headless ? chromium.headless : chromium.visible),
    },
  ];
  for (const [name, path] of [
    ['firefox', firefox.firefox],
    ['camoufox', firefox.camoufox],
  ] as const) {
    if (path && installed(path))
      runnables.push({ name, family: 'firefox', executable: () => path });
  }
  return runnables;
}

/** `browser` when this build runs it; else a 400 naming the field and what it can run. */
export function runnableBrowser(browser: string, runnables: RunnableBrowser[]): RunnableBrowser {
  const found = runnables.find((e) => e.name === browser);
  if (!found)
    throw new SessionError(
      'bad-request',
      `${browser} is not available on this server; available: ${runnables.map((e) => e.name).join(', ')}`,
      { field: 'browser' },
    );
  return found;
}

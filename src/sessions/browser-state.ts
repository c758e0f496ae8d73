import type { BidiConnection } from './bidi.ts';
import type { RunningBrowser } from './launcher.ts';
import { restoreState, type StorageState, saveState } from './state.ts';

/**
 * A session's storage saved at close and restored at resume, for either family. Chromium keeps
 * cookies and localStorage (state.ts); Firefox keeps cookies, read and written through WebDriver
 * BiDi's storage module (its localStorage would need each origin loaded, which BiDi gives no
 * quiet way to do).
 */

interface BidiCookie {
  name: string;
  value: { type: 'string' | 'base64'; value: string };
  domain: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: string;
  expiry?: number;
}

const SAME_SITE: Record<string, string> = { strict: 'Strict', lax: 'Lax', none: 'None' };

async function saveFirefoxState(bidi: BidiConnection): Promise<StorageState> {
  const { cookies } = await bidi.send<{ cookies: BidiCookie[] }>('storage.getCookies', {});
  return {
    cookies: cookies.map((c) => ({
      name: c.name,
      value:
        c.value.type === 'base64' ? Buffer.from(c.value.value, 'base64').toString() : c.value.value,
      domain: c.domain,
      path: c.path,
      secure: c.secure,
      httpOnly: c.httpOnly,
      ...(SAME_SITE[c.sameSite] ? { sameSite: SAME_SITE[c.sameSite] } : {}),
      ...(c.expiry === undefined ? {} : { expires: c.expiry }),
    })),
    origins: [],
  };
}

async function restoreFirefoxState(bidi: BidiConnection, state: StorageState): Promise<void> {
  for (const c of state.cookies) {
    await bidi.send('storage.setCookie', {
      cookie: {
        name: c.name,
        value: { type: 'string', value: c.value },
        domain: c.domain,
        path: c.path,
        secure: c.secure,
        httpOnly: c.httpOnly,
        ...(c.sameSite ? { sameSite: c.sameSite.toLowerCase() } : {}),
        ...(c.expires === undefined || c.expires < 0 ? {} : { expiry: Math.floor(c.expires) }),
      },
    });
  }
}

/** Saves the session's storage, within `ms`: a hung browser must not keep a close from finishing. */
export function saveBrowserState(
  ms: number,
  running: RunningBrowser,
  origins: Iterable<string>,
  ownTargets: Set<string>,
): Promise<StorageState> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    running.family === 'firefox'
      ? saveFirefoxState(running.control)
      : saveState(running.control, origins, ownTargets),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`saving session state took longer than ${ms} ms`)),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

export function restoreBrowserState(
  running: RunningBrowser,
  state: StorageState,
  ownTargets: Set<string>,
): Promise<void> {
  return running.family === 'firefox'
    ? restoreFirefoxState(running.control, state)
    : restoreState(running.control, state, ownTargets);
}

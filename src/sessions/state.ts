import type { CdpConnection } from './cdp.ts';

/** What a close saves and a resume restores: every cookie, and localStorage per origin visited. */
export interface StorageState {
  cookies: CookieParam[];
  origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }>;
}

interface CookieParam {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite?: string;
  expires?: number;
  priority?: string;
  sourceScheme?: string;
  sourcePort?: number;
  partitionKey?: unknown;
}

interface CdpCookie extends CookieParam {
  session: boolean;
}

const BLANK = Buffer.from('<!doctype html><title></title>').toString('base64');

/**
 * A hidden page whose every request is answered by the service with an empty document, so
 * visiting an origin to read or write its localStorage sends nothing to the network.
 * Playwright's storageState() works the same way; we do it on our passive control connection.
 */
async function withOriginPage<T>(
  cdp: CdpConnection,
  ownTargets: Set<string>,
  work: (visit: (origin: string) => Promise<string>) => Promise<T>,
): Promise<T> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
    url: 'about:blank',
    background: true,
  });
  ownTargets.add(targetId);
  const onPaused = (params: { requestId: string }, sid: string) => {
    if (sid !== sessionId) return;
    cdp
      .send(
        'Fetch.fulfillRequest',
        {
          requestId: params.requestId,
          responseCode: 200,
          responseHeaders: [{ name: 'content-type', value: 'text/html' }],
          body: BLANK,
        },
        sid,
      )
      .catch(() => undefined);
  };
  let sessionId = '';
  cdp.on('Fetch.requestPaused', onPaused);
  try {
    ({ sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    }));
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] }, sessionId);
    await cdp.send('Page.enable', {}, sessionId);
    const visit = async (origin: string) => {
      const loaded = new Promise<void>((resolve) => {
        const onLoad = (_p: unknown, sid: string) => {
          if (sid !== sessionId) return;
          cdp.off('Page.loadEventFired', onLoad);
          resolve();
        };
        cdp.on('Page.loadEventFired', onLoad);
      });
      await cdp.send('Page.navigate', { url: `${origin}/` }, sessionId);
      await loaded;
      return sessionId;
    };
    return await work(visit);
  } finally {
    cdp.off('Fetch.requestPaused', onPaused);
    await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  }
}

const READ_LOCAL_STORAGE = 'JSON.stringify([location.origin, Object.entries(localStorage)])';

/** The localStorage of the page's current origin, or undefined if the page is no longer on `origin`. */
async function readLocalStorage(
  cdp: CdpConnection,
  sessionId: string,
  origin: string,
): Promise<Array<{ name: string; value: string }> | undefined> {
  const { result } = await cdp.send<{ result: { value?: string } }>(
    'Runtime.evaluate',
    { expression: READ_LOCAL_STORAGE, returnByValue: true },
    sessionId,
  );
  const [at, entries] = JSON.parse(result.value ?? '["", []]') as [string, Array<[string, string]>];
  return at === origin ? entries.map(([name, value]) => ({ name, value })) : undefined;
}

export async function saveState(
  cdp: CdpConnection,
  origins: Iterable<string>,
  ownTargets: Set<string>,
): Promise<StorageState> {
  const { cookies } = await cdp.send<{ cookies: CdpCookie[] }>('Storage.getCookies');
  const left = new Set(origins);
  const saved: StorageState['origins'] = [];
  const keep = (
    origin: string,
    localStorage: Array<{ name: string; value: string }> | undefined,
  ) => {
    if (!localStorage) return;
    left.delete(origin);
    if (localStorage.length) saved.push({ origin, localStorage });
  };
  // An origin still open in a page is read there: much cheaper than loading it in a new page.
  const { targetInfos } = await cdp.send<{
    targetInfos: Array<{ targetId: string; type: string; url: string }>;
  }>('Target.getTargets');
  for (const info of targetInfos) {
    if (info.type !== 'page' || ownTargets.has(info.targetId) || !/^https?:/.test(info.url))
      continue;
    const origin = new URL(info.url).origin;
    if (!left.has(origin)) continue;
    try {
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId: info.targetId,
        flatten: true,
      });
      keep(origin, await readLocalStorage(cdp, sessionId, origin));
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    } catch {
      // The page went away or navigated meanwhile; the hidden page below reads the origin instead.
    }
  }
  if (left.size) {
    await withOriginPage(cdp, ownTargets, async (visit) => {
      for (const origin of [...left])
        keep(origin, await readLocalStorage(cdp, await visit(origin), origin));
    });
  }
  return { cookies: cookies.map(toParam), origins: saved };
}

export async function restoreState(
  cdp: CdpConnection,
  state: StorageState,
  ownTargets: Set<string>,
): Promise<void> {
  if (state.cookies.length) await cdp.send('Storage.setCookies', { cookies: state.cookies });
  if (!state.origins.length) return;
  await withOriginPage(cdp, ownTargets, async (visit) => {
    for (const { origin, localStorage } of state.origins) {
      const sid = await visit(origin);
      await cdp.send(
        'Runtime.evaluate',
        {
          expression: `for (const [k, v] of ${JSON.stringify(localStorage.map((e) => [e.name, e.value]))}) localStorage.setItem(k, v)`,
          returnByValue: true,
        },
        sid,
      );
    }
  });
}

function toParam(c: CdpCookie): CookieParam {
  const { session, ...rest } = c as CdpCookie & { size?: number; sameParty?: boolean };
  const param: CookieParam & { size?: number; sameParty?: boolean } = { ...rest };
  delete param.size;
  delete param.sameParty;
  if (session) delete param.expires;
  return param;
}

import { filesRefused, inFolder, SCHEMES_REFUSED, schemeAllowed } from './policy-checks.ts';

/**
 * What a session's CDP client may not do. The browser runs on the service's host, and a few CDP
 * commands reach past the page into that host or around the egress proxy: opening file:// and
 * other local schemes, putting host files into file inputs or drops (file inputs may name the
 * files of the session's own files folder, and only those), loading extensions from host paths,
 * giving a context its own proxy, contacting debugging endpoints directly, handing CDP to page
 * scripts, or tunnelling commands inside other commands where this check cannot see them. Those
 * are refused; downloads are confined to the session's files folder; everything else passes as sent.
 */
export interface CdpCommand {
  id: number;
  method: string;
  params?: Record<string, unknown>;
  sessionId?: string;
}

export type PolicyVerdict =
  | { action: 'forward' }
  | { action: 'rewrite'; command: CdpCommand }
  | { action: 'refuse'; message: string };

/** Commands that carry a URL the browser would open, by the parameter holding it. */
const URL_PARAMS: Record<string, string> = {
  'Page.navigate': 'url',
  'Target.createTarget': 'url',
  'Network.loadNetworkResource': 'url',
  'Fetch.continueRequest': 'url',
  'Network.continueInterceptedRequest': 'url',
};

const REFUSED: Record<string, string> = {
  'Extensions.loadUnpacked': 'loading extensions from the service host is not allowed',
  'Page.setDownloadBehavior': 'use Browser.setDownloadBehavior',
  'Target.sendMessageToTarget': 'use flattened sessions (sessionId on each message)',
  'Target.exposeDevToolsProtocol': 'page scripts may not drive the browser',
  'Target.setRemoteLocations': 'the browser may not contact other debugging endpoints',
};

/** Commands that put files into a page, by the parameter listing their paths. */
const FILE_PARAMS: Record<string, string> = {
  'DOM.setFileInputFiles': 'files',
  'Page.handleFileChooser': 'files',
};

/** The verdict on one client command; `filesDir` is the session's files folder (files.ts). */
export function checkCommand(command: CdpCommand, filesDir: string): PolicyVerdict {
  const { method, params = {} } = command;
  const refusal = REFUSED[method];
  if (refusal) return { action: 'refuse', message: `${method}: ${refusal}` };
  const fileParam = FILE_PARAMS[method];
  if (fileParam && params[fileParam] !== undefined) {
    const files = inFolder(params[fileParam], filesDir);
    if (!files)
      return {
        action: 'refuse',
        message: `${method}: ${filesRefused(filesDir)}`,
      };
    return {
      action: 'rewrite',
      command: { ...command, params: { ...params, [fileParam]: files } },
    };
  }
  const urlParam = URL_PARAMS[method];
  if (urlParam && !schemeAllowed(params[urlParam])) {
    return {
      action: 'refuse',
      message: `${method}: ${SCHEMES_REFUSED}`,
    };
  }
  // A drag carrying file paths drops those host files into the page, where its scripts read them.
  const drag = params.data as { files?: unknown } | undefined;
  if (
    method === 'Input.dispatchDragEvent' &&
    drag?.files !== undefined &&
    !(Array.isArray(drag.files) && drag.files.length === 0)
  ) {
    return {
      action: 'refuse',
      message: `${method}: dropping files of the service host into a page is not allowed`,
    };
  }
  if (
    method === 'Target.createBrowserContext' &&
    (params.proxyServer !== undefined || params.proxyBypassList !== undefined)
  ) {
    return {
      action: 'refuse',
      message: `${method}: contexts use the service's egress proxy; proxyServer may not be set`,
    };
  }
  if (method === 'Browser.setDownloadBehavior' && params.downloadPath !== undefined) {
    return {
      action: 'rewrite',
      command: { ...command, params: { ...params, downloadPath: filesDir } },
    };
  }
  return { action: 'forward' };
}

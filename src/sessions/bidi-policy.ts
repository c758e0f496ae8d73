import { filesRefused, inFolder, SCHEMES_REFUSED, schemeAllowed } from './policy-checks.ts';

/**
 * What a Firefox session's WebDriver BiDi client may do, as cdp-policy.ts is for Chromium. The
 * browser holds one BiDi session, the service's (bidi.ts), and a client's commands go through it:
 * so starting and ending a session is answered by the relay, closing the browser is a close of
 * the session, and everything else is decided here. Refused: putting host files into pages (file
 * inputs may name the session's own files, and only those), installing extensions from the host,
 * giving a user context its own proxy, opening local schemes; downloads are confined to the
 * session's files folder; everything else passes as sent.
 */
export interface BidiCommand {
  id: number;
  method: string;
  params?: Record<string, unknown>;
}

export type BidiVerdict =
  | { action: 'forward' }
  | { action: 'rewrite'; command: BidiCommand }
  | { action: 'refuse'; error: string; message: string }
  /** The relay answers itself (the session it already holds, or the session's close). */
  | { action: 'session-new' | 'session-end' | 'close' };

const RELAY_ANSWERS: Record<string, BidiVerdict['action']> = {
  'session.new': 'session-new',
  'session.end': 'session-end',
  'browser.close': 'close',
};

const REFUSED: Record<string, string> = {
  'webExtension.install': 'installing extensions from the service host is not allowed',
};

/** Commands that carry a URL the browser would open, by the parameter holding it. */
const URL_PARAMS: Record<string, string> = {
  'browsingContext.navigate': 'url',
  'network.continueRequest': 'url',
};

function refuse(method: string, message: string, error = 'unsupported operation'): BidiVerdict {
  return { action: 'refuse', error, message: `${method}: ${message}` };
}

/** The verdict on one client command; `filesDir` is the session's files folder (files.ts). */
export function checkBidiCommand(command: BidiCommand, filesDir: string): BidiVerdict {
  const { method, params = {} } = command;
  const answer = RELAY_ANSWERS[method];
  if (answer) return { action: answer } as BidiVerdict;
  const refusal = REFUSED[method];
  if (refusal) return refuse(method, refusal);
  if (method === 'input.setFiles') {
    const files = inFolder(params.files, filesDir);
    if (!files) return refuse(method, filesRefused(filesDir), 'invalid argument');
    return { action: 'rewrite', command: { ...command, params: { ...params, files } } };
  }
  const urlParam = URL_PARAMS[method];
  if (urlParam && !schemeAllowed(params[urlParam]))
    return refuse(method, SCHEMES_REFUSED, 'invalid argument');
  if (method === 'browser.createUserContext' && params.proxy !== undefined)
    return refuse(method, "user contexts use the service's egress proxy; proxy may not be set");
  const behavior = params.downloadBehavior as { type?: string } | null | undefined;
  if (method === 'browser.setDownloadBehavior' && behavior?.type === 'allowed') {
    return {
      action: 'rewrite',
      command: {
        ...command,
        params: { ...params, downloadBehavior: { type: 'allowed', destinationFolder: filesDir } },
      },
    };
  }
  return { action: 'forward' };
}

import { type ApiClient, httpClient } from '../../api-client/index.ts';
import { apiError, CliError, EXIT } from './errors.ts';

export interface ConnectionOptions {
  url?: string;
  key?: string;
}

/** A client session: the API, and how to let it go (an embedded server stops). */
export interface Session {
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  api: ApiClient;
  close(): Promise<void>;
}

function wrap(api: ApiClient, close: () => Promise<void>, where: string): Session {
  return {
    api,
    close,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      let res;
      try {
        res = await api.request(method, path, body);
      } catch (err) {
        throw new CliError(
          `cannot reach ${where}: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`,
          EXIT.unavailable,
        );
      }
      if (res.status >= 400) throw apiError(res.status, res.body);
      return res.body as T;
    },
  };
}

/**
 * The server named by --url/--key (or WEBDATA_URL/WEBDATA_API_KEY); with neither, the whole
 * service in this process, so a one-off command needs no server running.
 */
export async function connect(
  opts: ConnectionOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Session> {
  // Read here rather than through CLIENT_SETTINGS: the settings room loads the service's whole
  // table (the country list included), which a command talking to a server does not need.
  const url = opts.url ?? env.WEBDATA_URL?.trim();
  const key = opts.key ?? env.WEBDATA_API_KEY?.trim();
  if (url) {
    if (!key) throw new CliError('a server URL needs a key: --key or WEBDATA_API_KEY', EXIT.usage);
    return wrap(httpClient(url, key), async () => {}, url);
  }
  if (key)
    throw new CliError(
      'a key needs a server: --url or WEBDATA_URL (or neither, for an embedded server)',
      EXIT.usage,
    );
  // Loaded only when needed: the whole service is a large import for a command that talks to a server.
  const [{ startEmbedded }, { loadConfig }] = await Promise.all([
    import('../embedded.ts'),
    import('../../config.ts'),
  ]);
  const embedded = await startEmbedded(loadConfig(env), 'command');
  return wrap(embedded.api, embedded.close, 'the embedded server');
}

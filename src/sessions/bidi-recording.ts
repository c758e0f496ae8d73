import type { BidiConnection } from './bidi.ts';
import type { RecordingSink } from './recording.ts';
import { FLUSH_EXPRESSION, RECORDING_BINDING, recorderSource } from './recording-script.ts';

/**
 * The channel the recorder's events arrive on (script.message); the BiDi relay keeps these from
 * the client (bidi-bridge.ts), which never asked for them.
 */
export const RECORDING_CHANNEL = 'webdata-recording';

/** The sandbox (BiDi's name for an isolated world) the recorder runs in. */
const SANDBOX = 'webdata-recording';

/** The page number a document's events carry until the service knows its tab's. */
const UNNUMBERED = 0;

/** What a document's stub sends once its load event is over: the recorder may come in. */
const LOADED = '\u0000loaded';

interface ScriptMessage {
  channel: string;
  data: { type: string; value?: unknown };
  source: { context?: string };
}

/**
 * Records a Firefox session's pages as rrweb events, as recording.ts does for Chromium: the same
 * recorder script (recording-script.ts, inputs masked), in a sandbox of the service's own that
 * the page's scripts cannot reach. A preload script puts a stub into every top-level document
 * that says when the load event is over; only then is the recorder evaluated there, as on
 * Chromium: compiling it while the page loads made loads 1.6 times as slow. Its events come back
 * as messages on a channel; each tab gets its page number here, by the browsing context the
 * message came from.
 */
export class BidiRecorder {
  readonly #bidi: BidiConnection;
  readonly #sink: RecordingSink;
  readonly #pageNo = new Map<string, number>();
  readonly #onEvent: (text: string, method: string, params: unknown) => void;
  #setUp: Promise<{ script: string; subscription: string }> | undefined;
  #writes: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(bidi: BidiConnection, sink: RecordingSink) {
    this.#bidi = bidi;
    this.#sink = sink;
    this.#onEvent = (_text, method, params) => {
      if (method !== 'script.message' || this.#stopped) return;
      const message = params as ScriptMessage;
      if (message.channel !== RECORDING_CHANNEL || typeof message.data.value !== 'string') return;
      const context = message.source.context ?? '';
      if (message.data.value === LOADED) return void this.#inject(context);
      let pageNo = this.#pageNo.get(context);
      if (pageNo === undefined) {
        pageNo = this.#pageNo.size + 1;
        this.#pageNo.set(context, pageNo);
      }
      // The script numbers its events UNNUMBERED, last of each line; the tab's number goes there.
      const suffix = `"pageId":${UNNUMBERED}}`;
      const lines = message.data.value
        .split('\n')
        .map((line) =>
          line.endsWith(suffix) ? `${line.slice(0, -suffix.length)}"pageId":${pageNo}}` : line,
        )
        .join('\n');
      this.#writes = this.#writes
        .then(() => this.#sink.append(`${lines}\n`))
        .catch(() => undefined);
    };
  }

  /** Starts recording the documents loaded from now on. */
  async start(): Promise<void> {
    this.#bidi.on('event', this.#onEvent);
    this.#setUp = (async () => {
      const { subscription } = await this.#bidi.send<{ subscription: string }>(
        'session.subscribe',
        { events: ['script.message'] },
      );
      const { script } = await this.#bidi.send<{ script: string }>('script.addPreloadScript', {
        // Top-level documents only: rrweb records a page's same-origin frames itself.
        functionDeclaration: `function (channel) {
          if (window.top !== window) return;
          globalThis[${JSON.stringify(RECORDING_BINDING)}] = function (out) { channel(out); };
          function loaded() { setTimeout(function () { channel(${JSON.stringify(LOADED)}); }, 0); }
          if (document.readyState === 'complete') loaded();
          else addEventListener('load', loaded, { once: true, capture: true });
        }`,
        arguments: [{ type: 'channel', value: { channel: RECORDING_CHANNEL } }],
        sandbox: SANDBOX,
      });
      return { script, subscription };
    })();
    await this.#setUp;
  }

  #inject(context: string): void {
    void this.#bidi
      .send('script.evaluate', {
        expression: recorderSource(UNNUMBERED),
        target: { context, sandbox: SANDBOX },
        awaitPromise: false,
      })
      .catch(() => undefined);
  }

  /** Has every tab hand on what it recorded; resolves once that is in the sink. */
  async flush(): Promise<void> {
    const { contexts } = await this.#bidi
      .send<{ contexts: Array<{ context: string }> }>('browsingContext.getTree', { maxDepth: 0 })
      .catch(() => ({ contexts: [] }));
    await Promise.all(
      contexts.map(({ context }) =>
        this.#bidi
          .send('script.evaluate', {
            expression: FLUSH_EXPRESSION,
            target: { context, sandbox: SANDBOX },
            awaitPromise: false,
          })
          .catch(() => undefined),
      ),
    );
    // Messages sent before the evaluation's answer arrive before it: they are queued by now.
    await this.#writes;
  }

  /** Takes the last events and stops; the browser keeps its pages. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    await this.flush();
    this.#stopped = true;
    this.#bidi.off('event', this.#onEvent);
    const setUp = await this.#setUp?.catch(() => undefined);
    if (!setUp) return;
    await Promise.all([
      this.#bidi.send('script.removePreloadScript', { script: setUp.script }),
      this.#bidi.send('session.unsubscribe', { subscriptions: [setUp.subscription] }),
    ]).catch(() => undefined);
  }
}

import type { CdpConnection } from './cdp.ts';
import type { PageAttachments } from './presentation.ts';
import {
  FLUSH_EXPRESSION,
  RECORDING_BINDING,
  RECORDING_WORLD,
  recorderSource,
} from './recording-script.ts';

/** Where a recorder's events go: JSON lines, in the order each page recorded them. */
export interface RecordingSink {
  append(lines: string): Promise<void>;
}

interface RecordedPage {
  readonly sessionId: string;
  readonly pageNo: number;
  /** The recording world of the page's current document, once the recorder is in it. */
  contextId: number | undefined;
  /** The committed document (one object each) of the top frame that waits for its load event to be recorded. */
  awaitingLoad: { frameId: string } | undefined;
  /** Every step on the page runs after the one before, so a document is injected once. */
  chain: Promise<void>;
}

interface FrameNavigated {
  frame: { id: string; parentId?: string; url: string };
}

interface BindingCalled {
  name: string;
  payload: string;
  executionContextId: number;
}

type Listener = Parameters<CdpConnection['on']>[1];

/**
 * How long a committed document may take to load before it is recorded anyway. The recorder
 * starts once the load event is over, not at commit: compiling and starting it while the page
 * loads made loads half as slow again (bench/recording.ts).
 */
const LOAD_WAIT_MS = 5_000;

const recordable = (url: string) => /^https?:/.test(url);

/**
 * Records a session's pages as rrweb events. On each page the service attaches to (presentation.ts,
 * before the page runs), the Page domain is enabled on the service's own session so its
 * navigations are seen; each document of a top frame, once its load event is over, gets the rrweb
 * recorder evaluated in an isolated world of the service's (recording-script.ts), which a client's CDP connection
 * cannot list, see or remove, and whose globals and patched prototypes the page's scripts cannot
 * reach. Same-origin frames are recorded by their page's recorder, as rrweb does.
 *
 * The recorder hands events on through a binding added to that world's context alone, with each
 * document: a binding added by world name reaches the documents after a navigation only with the
 * Runtime domain enabled, which detectors notice, so it is not. Pulling instead loses a page's
 * last events: on a fast network the old document is gone before a pull sent at the start of a
 * navigation arrives.
 */
export class Recorder {
  readonly #control: CdpConnection;
  readonly #sink: RecordingSink;
  /** By target id: a target the service attaches to twice (state.ts) is recorded once. */
  readonly #pages = new Map<string, RecordedPage>();
  readonly #listeners: [string, Listener][] = [];
  /** Appends, in the order events arrived. */
  #writes: Promise<void> = Promise.resolve();
  #pageCount = 0;
  #stopped = false;

  constructor(control: CdpConnection, pages: PageAttachments, sink: RecordingSink) {
    this.#control = control;
    this.#sink = sink;
    this.#listen('Page.frameNavigated', (params: FrameNavigated, sessionId?: string) => {
      const page = this.#pageOf(sessionId);
      if (!page || params.frame.parentId) return;
      const { id, url } = params.frame;
      page.contextId = undefined;
      const awaiting = recordable(url) ? { frameId: id } : undefined;
      page.awaitingLoad = awaiting;
      if (!awaiting) return;
      // A document whose load never ends (a resource that hangs) is recorded from then on.
      setTimeout(() => this.#injectAwaiting(page, awaiting), LOAD_WAIT_MS).unref();
    });
    this.#listen('Page.loadEventFired', (_params: unknown, sessionId?: string) => {
      const page = this.#pageOf(sessionId);
      if (page?.awaitingLoad) this.#injectAwaiting(page, page.awaitingLoad);
    });
    this.#listen('Runtime.bindingCalled', (params: BindingCalled, sessionId?: string) => {
      if (params.name !== RECORDING_BINDING || !this.#pageOf(sessionId)) return;
      const lines = `${params.payload}\n`;
      this.#writes = this.#writes.then(() => this.#sink.append(lines)).catch(() => undefined);
    });
    this.#listen('Target.detachedFromTarget', (params: { sessionId: string }) => {
      for (const [targetId, page] of this.#pages)
        if (page.sessionId === params.sessionId) this.#pages.delete(targetId);
    });
    pages.onAttach((sessionId, targetId) => this.#attach(sessionId, targetId));
  }

  /** Has every page hand on what it recorded; resolves once that is in the sink. */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.#pages.values()].map((page) => {
        this.#step(page, async () => {
          if (page.contextId === undefined) return;
          await this.#control.send(
            'Runtime.evaluate',
            { expression: FLUSH_EXPRESSION, contextId: page.contextId },
            page.sessionId,
          );
        });
        return page.chain;
      }),
    );
    // The binding's calls arrive before the evaluation's answer: they are queued by now.
    await this.#writes;
  }

  /** Takes the last events and stops; the browser is left as it is. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    await this.flush();
    this.#stopped = true;
    for (const [event, listener] of this.#listeners) this.#control.off(event, listener);
  }

  #listen(event: string, listener: Listener): void {
    this.#control.on(event, listener);
    this.#listeners.push([event, listener]);
  }

  #pageOf(sessionId: string | undefined): RecordedPage | undefined {
    if (!sessionId || this.#stopped) return undefined;
    for (const page of this.#pages.values()) if (page.sessionId === sessionId) return page;
    return undefined;
  }

  #attach(sessionId: string, targetId: string): void {
    if (this.#stopped || this.#pages.has(targetId)) return;
    const page: RecordedPage = {
      sessionId,
      pageNo: ++this.#pageCount,
      contextId: undefined,
      awaitingLoad: undefined,
      chain: Promise.resolve(),
    };
    this.#pages.set(targetId, page);
    // A page attached before recording began (the browser's first tab) already has a document.
    this.#step(page, async () => {
      await this.#control.send('Page.enable', {}, sessionId);
      const { frameTree } = await this.#control.send<{
        frameTree: { frame: { id: string; url: string } };
      }>('Page.getFrameTree', {}, sessionId);
      if (page.contextId === undefined && recordable(frameTree.frame.url))
        await this.#inject(page, frameTree.frame.id);
    });
  }

  #injectAwaiting(page: RecordedPage, awaiting: { frameId: string }): void {
    if (page.awaitingLoad !== awaiting) return;
    page.awaitingLoad = undefined;
    this.#step(page, () => this.#inject(page, awaiting.frameId));
  }

  async #inject(page: RecordedPage, frameId: string): Promise<void> {
    const { executionContextId } = await this.#control.send<{ executionContextId: number }>(
      'Page.createIsolatedWorld',
      { frameId, worldName: RECORDING_WORLD },
      page.sessionId,
    );
    await this.#control.send(
      'Runtime.addBinding',
      { name: RECORDING_BINDING, executionContextId },
      page.sessionId,
    );
    await this.#control.send(
      'Runtime.evaluate',
      { expression: recorderSource(page.pageNo), contextId: executionContextId },
      page.sessionId,
    );
    page.contextId = executionContextId;
  }

  /** A page's document may be gone by the time a step runs; that step has nothing to do then. */
  #step(page: RecordedPage, step: () => Promise<void>): void {
    page.chain = page.chain.then(step).catch(() => undefined);
  }
}

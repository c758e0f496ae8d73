import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Group, spawnGroup } from '../browser/index.ts';

/**
 * x11vnc on one session's display, started with the first viewer and stopped with the last.
 * It listens on a unix socket inside the session's own folder (no TCP port at all), so only
 * the service's WebSocket bridge, which checks the session token, can reach it.
 */
export class VncPipeline {
  readonly #display: string;
  readonly #socketPath: string;
  readonly #env: NodeJS.ProcessEnv;
  #viewers = 0;
  #group: Group | undefined;
  // Starts and stops run one after another so a viewer arriving as the last one leaves never
  // finds a server that is about to be killed.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(display: string, socketPath: string, env: NodeJS.ProcessEnv) {
    this.#display = display;
    this.#socketPath = socketPath;
    this.#env = env;
  }

  /** Process group of the running x11vnc, if one runs. */
  get pgid(): number | undefined {
    return this.#group?.pgid;
  }

  get viewers(): number {
    return this.#viewers;
  }

  /** Registers a viewer and returns the socket to connect to once x11vnc listens. */
  acquire(): Promise<string> {
    this.#viewers++;
    return this.#serial(async () => {
      if (!this.#group) await this.#start();
      return this.#socketPath;
    }).catch((err) => {
      this.release();
      throw err;
    });
  }

  release(): void {
    this.#viewers = Math.max(0, this.#viewers - 1);
    // Nothing awaits a release; a failed stop must not become an unhandled rejection.
    this.#serial(async () => {
      if (this.#viewers === 0 && this.#group) await this.#stop();
    }).catch(() => undefined);
  }

  close(): Promise<void> {
    this.#viewers = 0;
    return this.#serial(() => this.#stop());
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #start(): Promise<void> {
    await rm(this.#socketPath, { force: true });
    // -noshm: x11vnc is stopped with SIGKILL, which leaves its SysV shared memory segments behind;
    // a few thousand viewers later the host's segment table is full and no live view can start.
    const group = spawnGroup(
      'x11vnc',
      [
        '-display',
        this.#display,
        '-unixsock',
        this.#socketPath,
        '-rfbport',
        '0',
        '-nopw',
        '-forever',
        '-shared',
        '-quiet',
        '-noxdamage',
        '-noshm',
      ],
      { env: this.#env, stdio: 'ignore' },
    );
    this.#group = group;
    let exited = false;
    void group.exited.then(() => {
      exited = true;
      if (this.#group === group) this.#group = undefined;
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      // Ready when a connection is taken, not when the socket file appears: the file exists from
      // bind() on, and a viewer connecting before listen() was refused and its live view closed.
      if (await accepts(this.#socketPath)) return;
      if (exited || Date.now() > deadline) {
        await group.kill();
        throw new Error('x11vnc did not start');
      }
      await sleep(25);
    }
  }

  async #stop(): Promise<void> {
    const group = this.#group;
    this.#group = undefined;
    await group?.kill();
    await rm(this.#socketPath, { force: true });
  }
}

/** Does something listen on the unix socket at `path`? The probe closes at once. */
function accepts(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

import { setTimeout as sleep } from 'node:timers/promises';
import { type Group, spawnGroup } from '../browser/index.ts';

/** Frames a second: enough to follow a page, little enough to leave the cores to the browsers. */
const FPS = 5;
/** How long ffmpeg may take to write a video's end (its index) once asked to stop. */
const FINISH_MS = 10_000;

export interface VideoOptions {
  /** The session's own X display (`:N`). */
  display: string;
  width: number;
  height: number;
  /** The WebM file written. */
  out: string;
  /** The environment ffmpeg runs with (the runtime marker the reaper looks for). */
  env: NodeJS.ProcessEnv;
}

/**
 * A visible session's display recorded as WebM (VP8) by ffmpeg's x11grab, outside the sandbox
 * (a client of the session's Xvfb like x11vnc), into the session's recording folder.
 */
export class VideoCapture {
  readonly #group: Group;

  constructor(o: VideoOptions) {
    this.#group = spawnGroup(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'x11grab',
        '-draw_mouse',
        '0',
        '-framerate',
        String(FPS),
        '-video_size',
        `${o.width}x${o.height}`,
        '-i',
        o.display,
        '-c:v',
        'libvpx',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-b:v',
        '1M',
        '-an',
        '-y',
        o.out,
      ],
      { env: o.env, stdio: ['pipe', 'ignore', 'ignore'] },
    );
    // An ffmpeg that is gone (its display closed first) makes the `q` below a broken pipe.
    this.#group.child.stdin!.on('error', () => undefined);
  }

  get pgid(): number {
    return this.#group.pgid;
  }

  /** Asks ffmpeg to finish the file (`q`, as at its console) and waits; killed if it does not. */
  async stop(): Promise<void> {
    const { child, exited } = this.#group;
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin!.end('q');
      await Promise.race([exited, sleep(FINISH_MS, undefined, { ref: false })]);
    }
    await this.#group.kill();
  }
}

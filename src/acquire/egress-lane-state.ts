import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

const MAX_REFUSALS_KEPT = 200;

/** Keeps the latest refusals, a bounded number: enough to explain a failed page, never a leak. */
export function keep(list: string[], message: string): void {
  list.push(message);
  if (list.length > MAX_REFUSALS_KEPT) list.shift();
}

/** What one listener keeps: its refusals, and the bytes it has brought in against its budget. */
export class LaneState {
  readonly refused: string[] = [];
  readonly sockets = new Set<Socket | Duplex>();
  readonly budget: number;
  readonly #log: ((message: string) => void) | undefined;
  bytes = 0;

  constructor(budget: number, log?: (message: string) => void) {
    this.budget = budget;
    this.#log = log;
  }

  remember(message: string): void {
    keep(this.refused, message);
    this.#log?.(message);
  }

  track(socket: Socket | Duplex): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Counts `n` bytes in; false once the lane is over its budget (remembered once, for the caller to explain). */
  take(n: number): boolean {
    const before = this.bytes;
    this.bytes += n;
    if (this.bytes <= this.budget) return true;
    if (before <= this.budget)
      this.remember(`the page loaded more than ${this.budget} bytes; its requests were stopped`);
    return false;
  }

  get spent(): boolean {
    return this.bytes > this.budget;
  }
}

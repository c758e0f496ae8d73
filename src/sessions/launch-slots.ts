import type { SessionConfig } from '../config.ts';
import { type LiveSession, SessionError } from './types.ts';

type Limits = Pick<SessionConfig, 'maxSessions' | 'maxSessionsPerUser'>;

/**
 * Sessions being launched, per user. A launch takes seconds, so a slot is held from the create
 * until the browser runs: concurrent creates cannot overshoot the limits.
 */
export class LaunchSlots {
  readonly #pending = new Map<string, number>();

  /** Holds a slot for `userId`, or refuses with 429 when the user or the instance is full; returns its release. */
  reserve(userId: string, running: Iterable<LiveSession>, limits: Limits): () => void {
    const active = [...running].filter((l) => !l.closing);
    const pendingTotal = [...this.#pending.values()].reduce((a, b) => a + b, 0);
    const mine =
      active.filter((l) => l.userId === userId).length + (this.#pending.get(userId) ?? 0);
    if (mine >= limits.maxSessionsPerUser) {
      throw new SessionError(
        'capacity',
        `at most ${limits.maxSessionsPerUser} active sessions per user; close one first`,
        { retryAfterSeconds: 30 },
      );
    }
    if (active.length + pendingTotal >= limits.maxSessions) {
      throw new SessionError(
        'capacity',
        `this instance runs at most ${limits.maxSessions} sessions; try again later`,
        { retryAfterSeconds: 30 },
      );
    }
    this.#pending.set(userId, (this.#pending.get(userId) ?? 0) + 1);
    return () => {
      const left = (this.#pending.get(userId) ?? 1) - 1;
      if (left <= 0) this.#pending.delete(userId);
      else this.#pending.set(userId, left);
    };
  }
}

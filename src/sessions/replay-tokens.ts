import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface ReplayToken {
  token: string;
  expiresAt: number;
}

/**
 * Short-lived tokens that open one session's recording without the API key (the replay page's
 * link): the expiry and an HMAC of session, owner and expiry under a secret kept in the data
 * folder, so a token stays good across a restart and names nothing but its expiry.
 */
export class ReplayTokens {
  readonly #file: string;
  readonly #ttlMs: number;
  #secret: Promise<Buffer> | undefined;

  constructor(dataDir: string, ttlMs: number) {
    this.#file = join(dataDir, 'replay-token.key');
    this.#ttlMs = ttlMs;
  }

  async issue(sessionId: string, userId: string, now: number): Promise<ReplayToken> {
    const expiresAt = now + this.#ttlMs;
    const mac = await this.#mac(sessionId, userId, expiresAt);
    return { token: `${expiresAt.toString(36)}.${mac.toString('base64url')}`, expiresAt };
  }

  async valid(token: string, sessionId: string, userId: string, now: number): Promise<boolean> {
    const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return false;
    const expiresAt = Number.parseInt(match[1]!, 36);
    if (!(expiresAt > now)) return false;
    const expected = await this.#mac(sessionId, userId, expiresAt);
    return timingSafeEqual(Buffer.from(match[2]!, 'base64url'), expected);
  }

  async #mac(sessionId: string, userId: string, expiresAt: number): Promise<Buffer> {
    return createHmac('sha256', await this.#key())
      .update(`${sessionId}\n${userId}\n${expiresAt}`)
      .digest();
  }

  #key(): Promise<Buffer> {
    this.#secret ??= readFile(this.#file).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      const secret = randomBytes(32);
      await mkdir(dirname(this.#file), { recursive: true });
      // `wx`: of two processes sharing the data folder, the second reads the first's secret.
      await writeFile(this.#file, secret, { mode: 0o600, flag: 'wx' }).catch(
        async (e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
        },
      );
      return readFile(this.#file);
    });
    return this.#secret;
  }
}

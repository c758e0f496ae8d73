import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A session's WebSocket token: 32 random bytes; only its SHA-256 is kept. */
export function newToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Constant-time comparison, so response timing says nothing about how much of a token was right. */
export function tokenMatches(token: string, hash: Buffer): boolean {
  return timingSafeEqual(hashToken(token), hash);
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Headers every delivery carries. */
export const SIGNATURE_HEADER = 'webdata-signature';
export const TIMESTAMP_HEADER = 'webdata-timestamp';
export const EVENT_ID_HEADER = 'webdata-event-id';
export const EVENT_HEADER = 'webdata-event';

export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The signature of a delivery: `v1=` and the hex HMAC-SHA256, keyed by the user's secret, of the
 * timestamp (Unix seconds, as sent in webdata-timestamp), a dot, and the raw body. The timestamp
 * is inside the signature so a captured delivery cannot be replayed later under a fresh one.
 */
export function sign(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The receiver's check, as documented: constant-time comparison, and a bounded clock skew. */
export function verify(
  secret: string,
  header: string,
  timestamp: string,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const ts = Number(timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(sign(secret, ts, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

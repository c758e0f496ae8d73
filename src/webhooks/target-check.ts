import {
  BlockedDestinationError,
  checkUrl,
  type NetworkPolicy,
  resolveChecked,
} from '../acquire/index.ts';

/** Bounds of a webhook's own headers: the request schema's and every delivery's. */
export const WEBHOOK_HEADER_LIMITS = { count: 20, nameLength: 100, valueLength: 1000 } as const;

/** Headers the service sets on each delivery; the caller's own headers may not replace them. */
const RESERVED_HEADERS =
  /^(host|content-type|content-length|transfer-encoding|connection|user-agent|webdata-.*)$/i;
/** RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What undici refuses to send in a header value (RFC 9110 field-value: no CR, LF, NUL, other controls, nothing past Latin-1). */
const BAD_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** A webhook the deliverer would refuse to send; `field` is within the webhook (`url`, `headers.<name>`). */
export class WebhookTargetError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

function checkedUrl(href: string, policy: NetworkPolicy): URL {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new WebhookTargetError('url', `"${href}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebhookTargetError(
      'url',
      `scheme ${url.protocol} is not supported; use http or https`,
    );
  if (url.username || url.password)
    throw new WebhookTargetError(
      'url',
      'credentials in the URL are not supported; send them in webhook.headers',
    );
  // The URL parser takes port 0, which nothing can connect to.
  if (url.port === '0') throw new WebhookTargetError('url', 'port 0 cannot be connected to');
  try {
    checkUrl(url, policy);
  } catch (err) {
    if (err instanceof BlockedDestinationError) throw new WebhookTargetError('url', err.message);
    throw err;
  }
  return url;
}

function checkHeaders(headers: Record<string, string>): void {
  const names = Object.keys(headers);
  if (names.length > WEBHOOK_HEADER_LIMITS.count)
    throw new WebhookTargetError(
      'headers',
      `at most ${WEBHOOK_HEADER_LIMITS.count} headers (got ${names.length})`,
    );
  for (const name of names) {
    const field = `headers.${name.slice(0, WEBHOOK_HEADER_LIMITS.nameLength)}`;
    if (name.length > WEBHOOK_HEADER_LIMITS.nameLength)
      throw new WebhookTargetError(
        field,
        `the name is longer than ${WEBHOOK_HEADER_LIMITS.nameLength} characters`,
      );
    if (!HEADER_NAME.test(name)) throw new WebhookTargetError(field, 'is not a valid header name');
    if (RESERVED_HEADERS.test(name))
      throw new WebhookTargetError(field, 'is set by the service and cannot be replaced');
    const value = headers[name]!;
    if (value.length > WEBHOOK_HEADER_LIMITS.valueLength)
      throw new WebhookTargetError(
        field,
        `the value is longer than ${WEBHOOK_HEADER_LIMITS.valueLength} characters`,
      );
    if (BAD_VALUE_CHAR.test(value))
      throw new WebhookTargetError(
        field,
        'the value may hold only tabs, printable characters and Latin-1 (no CR, LF, NUL or other control characters)',
      );
  }
}

/**
 * The one check of a webhook's URL and headers, made at the request (so a target no delivery
 * could reach is a 400 and no job) and again before every delivery (the policy may have changed
 * since, and rows written before a bound existed are refused the same way). The address a name
 * resolves to is checked at connect time by the deliverer's guarded lookup, and at the request.
 */
export function checkWebhookTarget(
  target: { url: string; headers: Record<string, string> },
  policy: NetworkPolicy,
): URL {
  const url = checkedUrl(target.url, policy);
  checkHeaders(target.headers);
  return url;
}

/**
 * Refuses a webhook whose host resolves to a refused address now (or not at all), as a
 * WebhookTargetError on `url`. A request is told at once; every delivery is checked again, as a
 * name can resolve elsewhere later.
 */
export async function checkWebhookHost(url: URL, policy: NetworkPolicy): Promise<void> {
  try {
    await resolveChecked(url.hostname, policy);
  } catch (err) {
    throw new WebhookTargetError(
      'url',
      err instanceof BlockedDestinationError ? err.message : `${url.hostname} cannot be resolved`,
    );
  }
}

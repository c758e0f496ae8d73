import { hasBinarySignature } from './binary-signatures.ts';
import { type Decoded, decodeBody } from './decode.ts';

export type BodyKind = 'html' | 'text' | 'pdf' | 'binary';

const TEXT_TYPES =
  /^(text\/|application\/(json|ld\+json|xml|javascript|x-javascript|ecmascript|rss\+xml|atom\+xml|x-ndjson|yaml|x-yaml|toml|csv)|[\w.-]+\/[\w.-]+\+(json|xml))/;

/** Enough of a body to judge it: the rest of a large body is not read. */
const SAMPLE_BYTES = 32 * 1024;

/** At most one character in a hundred may be bad: a control, a replacement, private use. */
const MAX_BAD_SHARE = 0.01;

/**
 * Bytes read by the guessed legacy charset are weak evidence (every byte decodes), so they count
 * as text only when they also read as prose or data (nearly all printable ASCII) or as markup.
 */
const MIN_ASCII_SHARE_WHEN_GUESSED = 0.9;
const MARKUP = /<(!doctype html|html|head|body|title|p|div|\?xml)[\s>]/i;

/**
 * The controls no text holds: WHATWG MIME Sniffing's binary data bytes (C0 but tab, line feed,
 * form feed, carriage return and escape, which coloured logs hold) and DEL. C1 controls are not
 * among them: text encoded twice (windows-1252 read as Latin-1, then written as UTF-8) is full of
 * them, and is still text.
 */
function isControl(code: number): boolean {
  return code < 0x20
    ? code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d && code !== 0x1b
    : code === 0x7f;
}

/**
 * A control, U+FFFD (bytes the charset could not read), or private use, where random bytes read
 * as UTF-16 land most (a tenth of all code units).
 */
function isBad(code: number): boolean {
  return isControl(code) || code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff);
}

/**
 * Decoded bytes are text when the decoding itself was evidence (a byte-order mark, a declared
 * charset, valid UTF-8) and few of its characters are bad; a guessed decoding needs prose or
 * markup besides.
 */
function decodesAsText(decoded: Decoded): boolean {
  const { text } = decoded;
  let bad = 0;
  let ascii = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isBad(code)) bad++;
    else if (code < 0x7f) ascii++;
  }
  if (bad > text.length * MAX_BAD_SHARE) return false;
  return (
    !decoded.guessed ||
    ascii >= text.length * MIN_ASCII_SHARE_WHEN_GUESSED ||
    MARKUP.test(text.slice(0, 4096))
  );
}

function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 512).trimStart().toLowerCase();
  return (
    head.startsWith('<!doctype html') ||
    head.startsWith('<html') ||
    /<(head|body|title|p|div)[\s>]/.test(head)
  );
}

/**
 * The one judgement of what a fetched body is, on evidence. A PDF by its type or its first bytes;
 * never text when it begins with a binary format's signature or declares a type that is not
 * text; otherwise text (HTML by its type or, with none or `application/octet-stream`, by its
 * first markup) only when it decodes as text, else binary. So mislabelled HTML, XML, JSON and
 * plain text are read, and random bytes under any of these types are not.
 */
export function bodyKind(contentType: string, body: Uint8Array): BodyKind {
  const declared = declaredKind(contentType);
  if (declared === 'pdf' || new TextDecoder('latin1').decode(body.subarray(0, 5)) === '%PDF-')
    return 'pdf';
  if (hasBinarySignature(body) || declared === 'binary') return 'binary';
  const sample = decodeBody(
    body.subarray(0, SAMPLE_BYTES),
    contentType,
    declared !== 'text',
    body.length > SAMPLE_BYTES,
  );
  if (!decodesAsText(sample)) return 'binary';
  return declared ?? (looksLikeHtml(sample.text) ? 'html' : 'text');
}

/**
 * What a Content-Type alone says a body is; undefined when it says nothing (none, or
 * `application/octet-stream`) and only the bytes can tell.
 */
export function declaredKind(contentType: string): BodyKind | undefined {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime === '' || mime === 'application/octet-stream') return undefined;
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/pdf') return 'pdf';
  return TEXT_TYPES.test(mime) ? 'text' : 'binary';
}

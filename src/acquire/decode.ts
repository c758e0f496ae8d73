/**
 * Turns page bytes into text the way a browser would: byte-order mark first, then the charset of
 * the Content-Type header, then a <meta> declaration in the first bytes, then UTF-8 when the bytes
 * are valid UTF-8, else windows-1252 (the web's legacy default). Node's TextDecoder (full ICU)
 * knows every WHATWG encoding, Shift_JIS and windows-1252 included.
 */
export interface Decoded {
  text: string;
  charset: string;
  /** Nothing named the charset and the bytes are not UTF-8: windows-1252 is a guess. */
  guessed: boolean;
}

const META_SCAN_BYTES = 4096;

function bomCharset(bytes: Uint8Array): { charset: string; skip: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { charset: 'utf-8', skip: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', skip: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', skip: 2 };
  return undefined;
}

export function charsetFromContentType(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/charset\s*=\s*["']?([\w.:-]+)/i);
  return match?.[1]?.toLowerCase();
}

function charsetFromMeta(bytes: Uint8Array): string | undefined {
  // ASCII-compatible prescan: every encoding we could meet here writes <meta> in ASCII.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, META_SCAN_BYTES));
  const direct = head.match(/<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i);
  return direct?.[1]?.toLowerCase();
}

function decoderFor(charset: string | undefined): TextDecoder | undefined {
  if (!charset) return undefined;
  try {
    return new TextDecoder(charset);
  } catch {
    return undefined;
  }
}

/**
 * `partial`: the bytes are the first part of a body, so a character cut at their end is neither
 * decoded nor taken as invalid UTF-8.
 */
export function decodeBody(
  bytes: Uint8Array,
  contentType: string | undefined,
  sniffMeta: boolean,
  partial = false,
): Decoded {
  const stream = { stream: partial };
  const bom = bomCharset(bytes);
  if (bom)
    return {
      text: new TextDecoder(bom.charset).decode(bytes.subarray(bom.skip), stream),
      charset: bom.charset,
      guessed: false,
    };
  const declared =
    charsetFromContentType(contentType) ?? (sniffMeta ? charsetFromMeta(bytes) : undefined);
  const decoder = decoderFor(declared);
  if (decoder)
    return { text: decoder.decode(bytes, stream), charset: decoder.encoding, guessed: false };
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes, stream),
      charset: 'utf-8',
      guessed: false,
    };
  } catch {
    return {
      text: new TextDecoder('windows-1252').decode(bytes),
      charset: 'windows-1252',
      guessed: true,
    };
  }
}

/**
 * The first bytes of file formats that are never text: images, audio, video, fonts, archives and
 * compressed data, executables, databases. Mostly the WHATWG MIME Sniffing tables, plus the
 * archives and executables they leave out. A signature no text could begin with is taken as it
 * is; one that spells a word a text could begin with ("ID3", "OTTO") is kept only with the byte
 * after it that no text has (a NUL), and formats whose only mark is such a word (BMP's "BM", a
 * DOS executable's "MZ") are left to the text rule, which their NULs and controls fail anyway.
 * Written by hand: `file-type` is not a dependency, reads asynchronously, and knows text formats
 * (SVG, XML) this judgement must leave to the text rule.
 */
interface Signature {
  /** Offset of the first byte. */
  at: number;
  /** The bytes; null matches any byte. */
  bytes: Array<number | null>;
}

/** A signature written as hex bytes, `??` for any byte, or `'text'` for its ASCII bytes. */
function sig(at: number, ...parts: string[]): Signature {
  const bytes: Array<number | null> = [];
  for (const part of parts) {
    if (part.startsWith("'")) {
      for (const ch of part.slice(1, -1)) bytes.push(ch.charCodeAt(0));
      continue;
    }
    for (const hex of part.split(' ')) bytes.push(hex === '??' ? null : Number.parseInt(hex, 16));
  }
  return { at, bytes };
}

const ANY4 = '?? ?? ?? ??';

const SIGNATURES: Signature[] = [
  // Images.
  sig(0, '00 00 01 00'),
  sig(0, '00 00 02 00'),
  sig(0, "'GIF87a'"),
  sig(0, "'GIF89a'"),
  sig(0, "'RIFF'", ANY4, "'WEBPVP'"),
  sig(0, '89 50 4E 47 0D 0A 1A 0A'),
  sig(0, 'FF D8 FF'),
  sig(0, '49 49 2A 00'),
  sig(0, '4D 4D 00 2A'),
  sig(0, '00 00 00 0C 6A 50 20 20'),
  sig(0, "'8BPS'", '00 01'),
  // Audio and video; ISO media (MP4, MOV, HEIC, AVIF) by its `ftyp` box.
  sig(4, "'ftyp'"),
  sig(0, "'.snd'", '00'),
  sig(0, "'FORM'", ANY4, "'AIFF'"),
  sig(0, "'ID3'", '?? 00'),
  sig(0, 'FF FB'),
  sig(0, "'OggS'", '00'),
  sig(0, "'MThd'", '00 00 00 06'),
  sig(0, "'RIFF'", ANY4, "'AVI '"),
  sig(0, "'RIFF'", ANY4, "'WAVE'"),
  sig(0, '1A 45 DF A3'),
  sig(0, "'fLaC'"),
  sig(0, "'FLV'", '01'),
  // Fonts.
  sig(0, '00 01 00 00'),
  sig(0, "'OTTO'", '00'),
  sig(0, "'ttcf'", '00'),
  sig(0, "'wOFF'"),
  sig(0, "'wOF2'"),
  // Archives and compressed data.
  sig(0, '1F 8B 08'),
  sig(0, "'PK'", '03 04'),
  sig(0, "'PK'", '05 06'),
  sig(0, "'PK'", '07 08'),
  sig(0, "'Rar!'", '1A 07'),
  sig(0, "'7z'", 'BC AF 27 1C'),
  sig(0, 'FD 37 7A 58 5A 00'),
  sig(0, "'BZh'", '??', "'1AY&SY'"),
  sig(0, '28 B5 2F FD'),
  sig(0, '04 22 4D 18'),
  sig(0, '78 9C'),
  sig(0, '78 DA'),
  sig(0, "'MSCF'", '00 00 00 00'),
  sig(0, "'!<arch>'", '0A'),
  sig(257, "'ustar'"),
  // Executables, bytecode, databases.
  sig(0, '7F 45 4C 46'),
  sig(0, 'FE ED FA CE'),
  sig(0, 'FE ED FA CF'),
  sig(0, 'CE FA ED FE'),
  sig(0, 'CF FA ED FE'),
  sig(0, 'CA FE BA BE'),
  sig(0, '00 61 73 6D'),
  sig(0, "'dex'", '0A'),
  sig(0, "'SQLite format 3'", '00'),
];

function matches(body: Uint8Array, { at, bytes }: Signature): boolean {
  if (body.length < at + bytes.length) return false;
  return bytes.every((b, i) => b === null || body[at + i] === b);
}

/** The body begins as a binary format does. */
export function hasBinarySignature(body: Uint8Array): boolean {
  return SIGNATURES.some((s) => matches(body, s));
}

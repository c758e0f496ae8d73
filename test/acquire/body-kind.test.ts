import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyKind } from '../../src/acquire/index.ts';

/** The types a body is sniffed under, and those that declare text it must still live up to. */
const UNDECLARED = ['', 'application/octet-stream'];
const TEXTUAL = ['text/plain', 'text/plain; charset=utf-8', 'application/json', 'text/html'];
const anyType = fc.constantFrom(...UNDECLARED, ...TEXTUAL);

/** First bytes of formats that are never text, one per family. */
const SIGNATURES: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  gif: [...Buffer.from('GIF89a')],
  mp4: [0, 0, 0, 0x18, ...Buffer.from('ftypisom')],
  ogg: [...Buffer.from('OggS'), 0],
  woff2: [...Buffer.from('wOF2')],
  zip: [0x50, 0x4b, 0x03, 0x04],
  gzip: [0x1f, 0x8b, 0x08],
  elf: [0x7f, 0x45, 0x4c, 0x46],
  sqlite: [...Buffer.from('SQLite format 3'), 0],
};

/** A character of prose or data: a control, private use or a replacement is none. */
const readable = (ch: string) => {
  const code = ch.codePointAt(0)!;
  const control = (code < 0x20 && !'\t\n\f\r\u001b'.includes(ch)) || code === 0x7f;
  return !control && !(code >= 0xe000 && code <= 0xf8ff) && code !== 0xfffd;
};

/** Text in many scripts. */
const prose = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 400 })
  .filter((s) => [...s].every(readable));

describe('bodyKind: text only on evidence', () => {
  it('never takes a body that begins with a binary signature for text, whatever its type says', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(SIGNATURES)),
        fc.string({ unit: 'grapheme-ascii', maxLength: 300 }),
        anyType,
        (signature, tail, type) => {
          // The rest of the body is as textual as can be: the signature alone decides.
          const body = Buffer.concat([Buffer.from(signature), Buffer.from(tail)]);
          expect(bodyKind(type, body)).toBe('binary');
        },
      ),
    );
  });

  it('takes random bytes for binary under every type that is sniffed or claims text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 4096 }), anyType, (bytes, type) => {
        expect(bodyKind(type, Buffer.from(bytes))).toBe('binary');
      }),
      { numRuns: 500 },
    );
  });

  it('takes text in any script for text, sniffed or declared', () => {
    fc.assert(
      fc.property(prose, fc.constantFrom(...UNDECLARED, 'text/plain'), (text, type) => {
        expect(bodyKind(type, Buffer.from(text))).toBe('text');
      }),
      { numRuns: 500 },
    );
  });

  it('reads mislabelled HTML, XML and JSON, a legacy charset and a PDF as they are', () => {
    const html =
      '<!doctype html><html><body><p>Caf\u00e9 cr\u00e8me, deux euros.</p></body></html>';
    for (const type of UNDECLARED) {
      expect(bodyKind(type, Buffer.from(html))).toBe('html');
      expect(bodyKind(type, Buffer.from(html, 'latin1'))).toBe('html');
      expect(bodyKind(type, Buffer.from('{"name":"fixture","items":[1,2,3]}'))).toBe('text');
      expect(bodyKind(type, Buffer.from('<?xml version="1.0"?><feed><entry/></feed>'))).toBe(
        'text',
      );
      expect(bodyKind(type, Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n', 'latin1'))).toBe('pdf');
    }
    expect(bodyKind('text/html', Buffer.from(html, 'latin1'))).toBe('html');
    expect(bodyKind('text/plain', Buffer.from('%PDF-1.4\n'))).toBe('pdf');
    // A page in Shift_JIS that says so in its <meta>, served without a type.
    const sjis = Buffer.concat([
      Buffer.from('<html><head><meta charset="shift_jis"></head><body><p>'),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]),
      Buffer.from('</p></body></html>'),
    ]);
    expect(bodyKind('', sjis)).toBe('html');
  });

  it('reads a coloured log and text encoded twice as text', () => {
    const log = '\u001b[32mPASS\u001b[0m test/a.test.ts\n\u001b[31mFAIL\u001b[0m test/b.test.ts\n';
    expect(bodyKind('text/plain', Buffer.from(log.repeat(20)))).toBe('text');
    // ’ in windows-1252 (E2 80 99) read as Latin-1 and written out as UTF-8.
    const twice = Buffer.from(
      'It\u00e2\u0080\u0099s the harbour\u00e2\u0080\u0099s week. '.repeat(20),
    );
    expect(bodyKind('application/octet-stream', twice)).toBe('text');
  });

  it('judges a large body by its start, a character cut at the sample edge included', () => {
    const text = '\u00e9'.repeat(40_000);
    expect(bodyKind('application/octet-stream', Buffer.from(text))).toBe('text');
    expect(bodyKind('application/octet-stream', Buffer.from(`x${text}`))).toBe('text');
  });
});

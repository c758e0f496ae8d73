/**
 * Character classes read one code point at a time, for counts taken of every block of every page
 * where matching a regular expression would build an array of every match only to count it.
 */

/**
 * A test of one code point against `single` (a pattern matching exactly one character, with the
 * `u` flag), answered from a table for the first plane, filled as code points are met.
 */
export function codePointClass(single: RegExp): (code: number) => boolean {
  // 0 not yet asked, 1 in the class, 2 not.
  const known = new Uint8Array(0x10000);
  return (code) => {
    if (code >= 0x10000) return single.test(String.fromCodePoint(code));
    let answer = known[code]!;
    if (!answer) {
      answer = single.test(String.fromCharCode(code)) ? 1 : 2;
      known[code] = answer;
    }
    return answer === 1;
  };
}

/** White space as `\s` and `trim` read it (all of it in the first plane). */
export const isSpace = codePointClass(/^\s$/u);

/** `text.trim().length`, without the trimmed copy: asked of every text node of every page. */
export function trimmedLength(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return end - start;
}

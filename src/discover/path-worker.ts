import { RE2JS } from 're2js';
import { taskStarted } from '../workers/index.ts';

/**
 * Most RE2 instructions one path pattern may compile to. Matching costs up to one step per
 * instruction per character of the path: `[a-z]{0,999}` alone is about 2,000 instructions and
 * 170 ms against one 2,048-character path, and 38 of them in a 461-character pattern 17 s.
 * Patterns people write (`^/blog/`, `/docs/.*\.html$`) compile to a few dozen.
 */
export const MAX_PATTERN_PROGRAM = 1000;

// Compiled patterns, kept across the pages of a crawl; cleared whole when it grows past a bound.
const compiled = new Map<string, RE2JS>();
const MAX_COMPILED = 500;

function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    re = RE2JS.compile(pattern);
    compiled.set(pattern, re);
  }
  return re;
}

/** Piscina task `problems`: why each pattern cannot be used (RE2's complaint or its size), or null. */
export function problems({
  id,
  patterns,
}: {
  id: number;
  patterns: string[];
}): Array<string | null> {
  taskStarted(id);
  return patterns.map((pattern) => {
    let re: RE2JS;
    try {
      re = compile(pattern);
    } catch (err) {
      return `is not a regular expression RE2 accepts (no lookarounds or backreferences): ${(err as Error).message}`;
    }
    const size = re.programSize();
    if (size <= MAX_PATTERN_PROGRAM) return null;
    // Refused, so never matched: not worth the memory of keeping.
    compiled.delete(pattern);
    return `compiles to ${size} RE2 instructions, more than ${MAX_PATTERN_PROGRAM}: use smaller repeat counts`;
  });
}

export interface PathFilter {
  /** A path must match one of these (when any are given). */
  include: string[];
  /** A path matching any of these is left out. */
  exclude: string[];
  paths: string[];
}

/** Piscina task `filter`: whether each path passes the patterns. */
export function filter({ id, include, exclude, paths }: PathFilter & { id: number }): boolean[] {
  taskStarted(id);
  const inc = include.map(compile);
  const exc = exclude.map(compile);
  return paths.map(
    (path) =>
      (inc.length === 0 || inc.some((re) => re.matcher(path).find())) &&
      !exc.some((re) => re.matcher(path).find()),
  );
}

import { posix } from 'node:path';

/** What both client protocols' policies (cdp-policy.ts, bidi-policy.ts) check the same way. */

const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'about:', 'data:', 'blob:']);

export const SCHEMES_REFUSED = 'only http, https, about, data and blob URLs may be opened';

/**
 * The paths as files of `folder`: a bare name is taken as one of its files, a path must lead to
 * one directly (after `.` and `..` are resolved); undefined when any path leads elsewhere.
 */
export function inFolder(files: unknown, folder: string): string[] | undefined {
  if (!Array.isArray(files)) return undefined;
  const resolved: string[] = [];
  for (const file of files) {
    if (typeof file !== 'string' || file === '' || file.includes('\0')) return undefined;
    const path = posix.resolve(folder, file);
    if (posix.dirname(path) !== folder) return undefined;
    resolved.push(path);
  }
  return resolved;
}

/** Absent is fine (the command does not navigate); a URL must parse and use an allowed scheme. */
export function schemeAllowed(url: unknown): boolean {
  if (url === undefined) return true;
  if (typeof url !== 'string') return false;
  try {
    return ALLOWED_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

export function filesRefused(filesDir: string): string {
  return `only files of the session's files folder (${filesDir}) may be put into a page; upload them with POST /v1/browser-sandbox/session/{id}/files`;
}

import type { HttpResponse } from '../acquire/index.ts';

function mediaType(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The response says it is a web page. */
export function declaredHtml(headers: Record<string, string>): boolean {
  const type = mediaType(headers);
  return type === 'text/html' || type === 'application/xhtml+xml';
}

/** A web page, by its declared type or, with none, by its first bytes. */
export function isHtml(res: HttpResponse): boolean {
  if (declaredHtml(res.headers)) return true;
  if (mediaType(res.headers)) return false;
  return /^\s*(<!doctype html|<html)/i.test(res.body.subarray(0, 256).toString('latin1'));
}

import type { Readable } from 'node:stream';

export interface StoredArtifact {
  /** `<token>/<file name>`: the token is unguessable, the name is for people. */
  key: string;
  /** Public download URL. */
  url: string;
  expiresAt: Date;
}

export interface ArtifactFile {
  body: Readable;
  size: number;
  contentType: string;
  fileName: string;
}

/**
 * Where screenshots and PDFs go. The local folder is the default; an S3-compatible store would
 * implement the same four calls (put with an expiry rule, get for the /files route or a redirect
 * to a presigned URL, sweep as a lifecycle rule).
 */
export interface ArtifactStore {
  put(body: Buffer, opts: { fileName: string; contentType: string }): Promise<StoredArtifact>;
  /** The artifact, or undefined when the key is unknown or expired. */
  get(key: string): Promise<ArtifactFile | undefined>;
  /** Deletes expired artifacts; returns how many went. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/** A file name safe in a URL path and a Content-Disposition header, from a user's title. */
export function safeFileName(
  title: string | undefined,
  extension: string,
  fallback: string,
): string {
  const base = (title ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return `${base || fallback}.${extension}`;
}

import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { ArtifactFile, ArtifactStore, StoredArtifact } from './artifact-store.ts';

const TOKEN = /^[A-Za-z0-9_-]{32}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;
const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

export interface LocalArtifactOptions {
  dir: string;
  /** Base of public URLs (WEBDATA_PUBLIC_URL); files are served under `<publicUrl>/files/`. */
  publicUrl: string;
  ttlMs: number;
  /** How often expired files are swept; default the smaller of the TTL and one hour. */
  sweepEveryMs?: number;
}

/**
 * Artifacts in a local folder, one directory per artifact named by 24 random bytes, so a URL
 * cannot be guessed from another. Expiry is the file's age, checked on every read and swept
 * periodically, so nothing but the folder needs to survive a restart.
 */
export class LocalArtifactStore implements ArtifactStore {
  readonly #opts: LocalArtifactOptions;
  readonly #timer: NodeJS.Timeout;

  constructor(opts: LocalArtifactOptions) {
    this.#opts = opts;
    this.#timer = setInterval(
      () => void this.sweep().catch(() => {}),
      opts.sweepEveryMs ?? Math.min(opts.ttlMs, 3_600_000),
    );
    this.#timer.unref();
  }

  async put(
    body: Buffer,
    opts: { fileName: string; contentType: string },
  ): Promise<StoredArtifact> {
    if (!NAME.test(opts.fileName)) throw new Error(`unsafe artifact file name "${opts.fileName}"`);
    const token = randomBytes(24).toString('base64url');
    await mkdir(join(this.#opts.dir, token), { recursive: true });
    await writeFile(join(this.#opts.dir, token, opts.fileName), body);
    const key = `${token}/${opts.fileName}`;
    return {
      key,
      url: `${this.#opts.publicUrl}/files/${key}`,
      expiresAt: new Date(Date.now() + this.#opts.ttlMs),
    };
  }

  async get(key: string): Promise<ArtifactFile | undefined> {
    const [token, fileName, ...rest] = key.split('/');
    if (!token || !fileName || rest.length || !TOKEN.test(token) || !NAME.test(fileName))
      return undefined;
    const path = join(this.#opts.dir, token, fileName);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    if (info.mtimeMs + this.#opts.ttlMs < Date.now()) {
      await rm(join(this.#opts.dir, token), { recursive: true, force: true });
      return undefined;
    }
    return {
      body: createReadStream(path),
      size: info.size,
      contentType: TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream',
      fileName,
    };
  }

  async sweep(): Promise<number> {
    const tokens = await readdir(this.#opts.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const token of tokens) {
      if (!TOKEN.test(token)) continue;
      const info = await stat(join(this.#opts.dir, token)).catch(() => undefined);
      if (info && info.mtimeMs + this.#opts.ttlMs < Date.now()) {
        await rm(join(this.#opts.dir, token), { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
  }
}

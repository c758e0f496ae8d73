import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the system temp folder, removed with all it holds on close. */
export async function tempDir(prefix: string): Promise<{ path: string; close(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, close: () => rm(path, { recursive: true, force: true }) };
}

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalArtifactStore, safeFileName } from '../../src/artifacts/index.ts';

const stores: LocalArtifactStore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function store(ttlMs: number): Promise<{ store: LocalArtifactStore; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'webdata-artifacts-'));
  dirs.push(dir);
  const s = new LocalArtifactStore({
    dir,
    publicUrl: 'https://data.example',
    ttlMs,
    sweepEveryMs: 60_000,
  });
  stores.push(s);
  return { store: s, dir };
}

describe('LocalArtifactStore', () => {
  it('stores under an unguessable public URL and reads back', async () => {
    const { store: s } = await store(60_000);
    const a = await s.put(Buffer.from('%PDF-1.7 hello'), {
      fileName: 'report.pdf',
      contentType: 'application/pdf',
    });
    const b = await s.put(Buffer.from('%PDF-1.7 hello'), {
      fileName: 'report.pdf',
      contentType: 'application/pdf',
    });
    expect(a.url).toMatch(/^https:\/\/data\.example\/files\/[A-Za-z0-9_-]{32}\/report\.pdf$/);
    expect(a.url).not.toBe(b.url);
    const file = await s.get(a.key);
    expect(file?.contentType).toBe('application/pdf');
    expect(await text(file!.body)).toBe('%PDF-1.7 hello');
    expect(await s.get(`${a.key.split('/')[0]}/other.pdf`)).toBeUndefined();
    expect(await s.get('../../etc/passwd')).toBeUndefined();
  });

  it('expires artifacts on read and sweeps them from disk', async () => {
    const { store: s, dir } = await store(80);
    const a = await s.put(Buffer.from('x'), { fileName: 'a.png', contentType: 'image/png' });
    await s.put(Buffer.from('y'), { fileName: 'b.png', contentType: 'image/png' });
    expect(await s.get(a.key)).toBeDefined();
    await new Promise((r) => setTimeout(r, 150));
    expect(await s.get(a.key)).toBeUndefined();
    expect(await s.sweep()).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('makes file names from titles', () => {
    expect(safeFileName('Harbour Report: Q3/2026', 'pdf', 'document')).toBe(
      'Harbour-Report-Q3-2026.pdf',
    );
    expect(safeFileName('Ünïcödé', 'pdf', 'document')).toBe('Unicode.pdf');
    expect(safeFileName('../..', 'pdf', 'document')).toBe('document.pdf');
    expect(safeFileName(undefined, 'png', 'screenshot')).toBe('screenshot.png');
  });
});

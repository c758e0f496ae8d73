import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const REPO = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(resolve(REPO, file), 'utf8');

/** scripts/debian-packages.txt: the one list of Debian packages the service runs on. */
function listed(): string[] {
  return read('scripts/debian-packages.txt')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
}

/**
 * Programs the service starts by name: the first argument of every spawn it makes, through
 * spawnGroup, node:child_process, or a promisified execFile.
 */
function spawnedPrograms(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        const source = readFileSync(path, 'utf8');
        const starters = ['spawnGroup', 'spawn', 'spawnSync', 'execFile', 'execFileSync'];
        for (const m of source.matchAll(/const (\w+) = promisify\((?:execFile|spawn)\)/g))
          starters.push(m[1]!);
        const call = new RegExp(`\\b(?:${starters.join('|')})\\(\\s*'([^']+)'`, 'g');
        for (const m of source.matchAll(call)) found.add(m[1]!);
      }
    }
  };
  walk(resolve(REPO, 'src'));
  const { chromium } = loadConfig({});
  return [...found, chromium.headless, chromium.visible];
}

/** The Debian package that installed `program` (a name on PATH or an absolute path). */
function owningPackage(program: string): string {
  const path = program.startsWith('/')
    ? program
    : execFileSync('sh', ['-c', 'command -v "$1"', 'sh', program], { encoding: 'utf8' }).trim();
  for (const candidate of new Set([path, realpathSync(path)])) {
    try {
      const out = execFileSync('dpkg-query', ['--search', candidate], { encoding: 'utf8' });
      return out.split(':')[0]!;
    } catch {}
  }
  throw new Error(`no Debian package owns ${program} (${path})`);
}

describe('the Debian packages the service runs on', () => {
  it('are listed once, and both the Containerfile and scripts/setup.sh install that list', () => {
    expect(read('Containerfile')).toMatch(/^COPY scripts\/debian-packages\.txt /m);
    expect(read('scripts/setup.sh')).toMatch(/^mapfile .*scripts\/debian-packages\.txt\)$/m);
    const apt = /apt-get install[^\n]*\b(chromium|bubblewrap|xvfb|x11vnc|tesseract|poppler)/;
    expect(read('Containerfile')).not.toMatch(apt);
    expect(read('scripts/setup.sh')).not.toMatch(apt);
  });

  it('include the package of every program the service starts', () => {
    const programs = spawnedPrograms();
    expect(programs).toEqual(expect.arrayContaining(['bwrap', 'Xvfb', 'x11vnc', 'tesseract']));
    const missing = programs
      .map((program) => ({ program, pkg: owningPackage(program) }))
      .filter(({ pkg }) => !listed().includes(pkg));
    expect(missing).toEqual([]);
  });
});

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');

/** Every file git tracks, or would track, in the checkout. */
function repoFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean);
}

/** Benchmarks may read data sets from beside the checkout; nothing else may reach outside it. */
const MAY_LOOK_OUTSIDE = /^bench\//;
const OUTSIDE = /\.\.\/(?:\.\.\/)*shared\b/;

describe('the repository stands alone', () => {
  it('no source, test, script or document reads or links a folder beside the checkout', () => {
    const offenders = repoFiles()
      .filter((f) => !MAY_LOOK_OUTSIDE.test(f))
      .filter((f) => /\.(ts|js|md|sh|json|jsonc|ya?ml)$/.test(f) || f.startsWith('.ci/'))
      .filter((f) => OUTSIDE.test(readFileSync(resolve(REPO, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the README and every page under docs/ link only to files in the repository', () => {
    const tracked = new Set(repoFiles());
    const files = [...tracked].filter((f) => f === 'README.md' || /^docs\/.*\.md$/.test(f));
    const broken: string[] = [];
    for (const file of files) {
      // Markdown in code (examples of our output) is not a link of the page's own.
      const text = readFileSync(resolve(REPO, file), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = resolve(REPO, file, '..', target!.split('#')[0]!);
        if (!path.startsWith(`${REPO}/`) || !tracked.has(path.slice(REPO.length + 1)))
          broken.push(`${file} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

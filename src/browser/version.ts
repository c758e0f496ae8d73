import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const versions = new Map<string, Promise<string>>();

/**
 * The version a Chromium executable reports (`Chromium 156.0.8078.108 built on Debian...`), read
 * once per path: what the browser presents must be known before it starts, for the launch flags.
 */
export function executableVersion(path: string): Promise<string> {
  let version = versions.get(path);
  if (!version) {
    version = run(path, ['--version'], { timeout: 10_000 }).then(({ stdout }) => {
      const found = /\d+\.\d+\.\d+\.\d+/.exec(stdout);
      if (!found) throw new Error(`${path} --version printed no version: ${stdout.trim()}`);
      return found[0];
    });
    version.catch(() => versions.delete(path));
    versions.set(path, version);
  }
  return version;
}

import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDocs } from '../../scripts/docs-config.ts';
import { documentedSettings, loadConfig } from '../../src/config.ts';
import { ConfigError } from '../../src/settings/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('the settings table and its docs', () => {
  it('README.md and docs/configuration.md hold the tables generated from it (npm run docs:config)', async () => {
    for (const doc of await configDocs()) {
      expect(
        await readFile(join(ROOT, doc.path), 'utf8'),
        `${doc.path} is stale: run npm run docs:config`,
      ).toBe(doc.text);
    }
  });

  it('lists every variable src/ reads from an environment, and each once', async () => {
    const documented = documentedSettings().map((s) => s.variable);
    expect(new Set(documented).size).toBe(documented.length);
    // Set for child processes or inherited from the system, not settings of the service.
    const system = new Set(['PATH', 'LANG', 'DISPLAY']);
    const read = new Set<string>();
    for (const file of await sources(join(ROOT, 'src'))) {
      for (const m of (await readFile(file, 'utf8')).matchAll(
        /\benv(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g,
      ))
        read.add(m[1]!);
    }
    expect(read).toContain('WEBDATA_URL');
    expect([...read].filter((v) => !system.has(v) && !documented.includes(v))).toEqual([]);
  });

  it('names in src/ that look like settings are settings (no stale names in messages)', async () => {
    const documented = new Set(documentedSettings().map((s) => s.variable));
    // A marker put into the environment of session browsers so their processes can be found.
    const notSettings = new Set(['WEBDATA_SESSION_RUNTIME']);
    const named = new Set<string>();
    for (const file of await sources(join(ROOT, 'src'))) {
      for (const m of (await readFile(file, 'utf8')).matchAll(
        /\b(?:WEBDATA|OPENAI|PERPLEXITY|BRAVE|SEARXNG|GOOGLE_CSE)_[A-Z0-9_]+\b/g,
      ))
        named.add(m[0]);
    }
    expect(named).toContain('WEBDATA_PROXY_URLS');
    expect([...named].filter((v) => !documented.has(v) && !notSettings.has(v))).toEqual([]);
  });
});

describe('loadConfig', () => {
  const refusal = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error(`${JSON.stringify(env)} was accepted`);
  };

  it('gives every setting its default on an empty environment, derived ones from the setting they follow', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.network).toEqual({ allowPrivate: false, staticHosts: new Map() });
    expect(config.chromium).toEqual({
      headless: '/usr/bin/chromium-headless-shell',
      visible: '/usr/bin/chromium',
    });
    expect(config.extract.model).toBe(config.summary.model);
    const derived = loadConfig({
      PORT: '4100',
      WEBDATA_SUMMARY_MODEL: 'small-model',
      WEBDATA_EXTRACT_MAX_INPUT_CHARS: ' 5000 ',
    });
    expect(derived.publicUrl).toBe('http://localhost:4100');
    expect(derived.extract).toMatchObject({ model: 'small-model', maxInputChars: 5000 });
    expect(derived.summary.model).toBe('small-model');
  });

  it('reads each shared variable once for every room that uses it', () => {
    const config = loadConfig({
      OPENAI_BASE_URL: 'http://llm.example/v1/',
      OPENAI_API_KEY: ' k ',
      WEBDATA_CHROMIUM_HEADLESS: '/opt/shell',
    });
    expect(config.llm).toMatchObject({ baseUrl: 'http://llm.example/v1', apiKey: 'k' });
    expect(config.chromium.headless).toBe('/opt/shell');
    expect(JSON.stringify(config.search)).not.toContain('llm.example');
  });

  // A RegExp where the message goes on to list a table's values.
  it.each<[Record<string, string>, string | RegExp]>([
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ WEBDATA_BATCH_MAX_URLS: '12x' }, 'WEBDATA_BATCH_MAX_URLS must be a whole number, got "12x"'],
    [{ WEBDATA_BROWSER_WARM: 'maybe' }, 'WEBDATA_BROWSER_WARM must be true or false, got "maybe"'],
    [
      { WEBDATA_GOOGLE_URL: 'ftp://g.example' },
      'WEBDATA_GOOGLE_URL must use http: or https:, got "ftp://g.example"',
    ],
    [{ SEARXNG_URL: 'not a url' }, 'SEARXNG_URL must be a URL, got "not a url"'],
    [
      { WEBDATA_DEFAULT_BROWSER: 'netscape' },
      'WEBDATA_DEFAULT_BROWSER must be one of chromium, firefox, camoufox, lightpanda, got "netscape"',
    ],
    [
      { WEBDATA_FIRECRAWL_SEARCH_ENGINE: 'yahoo' },
      /^WEBDATA_FIRECRAWL_SEARCH_ENGINE must be one of google, bing,/,
    ],
    [
      { WEBDATA_LLM_API: 'grpc' },
      /^WEBDATA_LLM_API must be one of responses, chat-completions, ollama/,
    ],
    [{ WEBDATA_LOG_LEVEL: 'loud' }, /^WEBDATA_LOG_LEVEL must be one of silent, /],
    [
      { WEBDATA_API_KEYS: 'long-enough-key-0001,short' },
      'WEBDATA_API_KEYS entries must be at least 16 characters long',
    ],
    [
      { WEBDATA_TEST_RESOLVE: 'a.test' },
      'WEBDATA_TEST_RESOLVE: entries must look like host=ip, got "a.test"',
    ],
    [
      { DATABASE_URL: 'mysql://x' },
      'DATABASE_URL: must be empty (embedded SQLite) or a postgres:// URL',
    ],
    [{ GOOGLE_CSE_KEY: 'k' }, 'GOOGLE_CSE_KEY and GOOGLE_CSE_CX must be set together'],
  ])('refuses %o with an error naming its variable', (env, message) => {
    expect(refusal(env)).toEqual(
      typeof message === 'string' ? message : expect.stringMatching(message),
    );
  });

  it('holds every integer setting to the bounds its docs state', () => {
    for (const s of documentedSettings()) {
      const bounds = /^integer, (\d+) to (\d+)$/.exec(s.kind);
      if (!bounds) continue;
      const [min, max] = [Number(bounds[1]), Number(bounds[2])];
      if (min > 0) expect(refusal({ [s.variable]: String(min - 1) })).toContain(s.variable);
      if (max < Number.MAX_SAFE_INTEGER)
        expect(refusal({ [s.variable]: String(max + 1) })).toContain(s.variable);
      expect(() => loadConfig({ [s.variable]: String(max) })).not.toThrow();
    }
  });
});

it('webdata serve stops at start-up with exit code 2 and names the variable it refused', async () => {
  const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
    const env = { PATH: process.env.PATH ?? '', WEBDATA_DEFAULT_BROWSER: 'netscape' };
    execFile(
      join(ROOT, 'node_modules/.bin/node'),
      [join(ROOT, 'src/cli/main.ts'), 'serve'],
      { env, timeout: 30_000 },
      (err, _out, stderr) => done({ code: err ? (err.code as number) : 0, stderr }),
    );
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    'configuration error: WEBDATA_DEFAULT_BROWSER must be one of chromium, firefox, camoufox, lightpanda',
  );
});

import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { browserCapacity } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { leavingScrape } from '../helpers/leaving-client.ts';
import { timed, waitFor } from '../helpers/poll.ts';
import { useServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const LAUNCH_DELAY_S = 6;

// A browser that takes seconds to start, as a loaded machine's first launch does.
const slowBrowser = useFixture(async () => {
  const dir = await tempDir('webdata-slow-browser-');
  const path = join(dir.path, 'slow-chromium');
  await writeFile(
    path,
    `#!/bin/sh\nsleep ${LAUNCH_DELAY_S}\nexec /usr/bin/chromium-headless-shell "$@"\n`,
  );
  await chmod(path, 0o755);
  return { path, close: dir.close };
});
const site = useFixture(() => startFixtureSite());
const t = useServer({
  settings: () => ({
    WEBDATA_CHROMIUM_HEADLESS: slowBrowser.path,
    ...browserCapacity({ browsers: 1, pages: 1, queueWaitMs: 500 }),
  }),
});

const activePages = () => t.server.services.browser.stats().browser.activePages;

describe('a client that leaves while the browser is starting', () => {
  it('gives its page back at once, not when the browser is up', async () => {
    const { answer: scrape, leave } = leavingScrape(t, {
      url: `${site.origin}/article.html`,
      actions: [{ type: 'wait', milliseconds: 10 }],
    });
    await waitFor(() => activePages() === 1, { timeoutMs: 5_000 });
    leave();
    expect(await scrape).toBeInstanceOf(Error);
    const freed = await timed(
      waitFor(() => activePages() === 0, { timeoutMs: 10_000, everyMs: 10 }),
    );
    expect(freed.ms).toBeLessThan(1000);
    expect(t.server.services.browser.stats().browser.waiting).toBe(0);
  });
});

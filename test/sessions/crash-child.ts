/**
 * Run as a child process by crash.test.ts: launches a visible session browser (Chromium under
 * its own Xvfb), prints the process groups, and waits to be killed.
 */
import { launchChromium } from '../../src/sessions/chromium.ts';

const root = process.argv[2]!;
const browser = await launchChromium({
  executable: '/usr/bin/chromium',
  headless: false,
  width: 800,
  height: 600,
  proxyUrl: 'http://127.0.0.1:9',
  root,
  env: {},
});
console.log(JSON.stringify(browser.groups.map((g) => g.pgid)));
setInterval(() => undefined, 60_000);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('request log', () => {
  let t: TestServer;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await startTestServer({}, { logLevel: 'info', logStream: { write: (line) => void lines.push(line) } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps session tokens and artifact tokens out of logged URLs', async () => {
    const sessionToken = 'SeSsIoNtOkEnThatMustNotBeLogged0123456789';
    const fileToken = 'FiLeToKeNthatMustNotBeLogged0123';
    await fetch(`${t.base}/browser-sandbox-ws?sessionId=abc&token=${sessionToken}`);
    await fetch(`${t.base}/live-view?token=${sessionToken}&sessionId=abc`);
    await fetch(`${t.base}/files/${fileToken}/shot.png`);
    await new Promise((r) => setTimeout(r, 50));

    const logged = lines.join('');
    expect(logged).not.toContain(sessionToken);
    expect(logged).not.toContain(fileToken);
    // The rest of the request is still there to read.
    const urls = lines.map((l) => JSON.parse(l)).filter((e) => e.req).map((e) => e.req.url);
    expect(urls).toEqual([
      '/browser-sandbox-ws?sessionId=abc&token=[redacted]',
      '/live-view?token=[redacted]&sessionId=abc',
      '/files/[redacted]/shot.png',
    ]);
  });
});

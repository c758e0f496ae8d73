import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';

describe('request log', () => {
  const lines: string[] = [];
  const t = useServer({
    app: { logLevel: 'info', logStream: { write: (line) => void lines.push(line) } },
  });

  /** The log once the last request's line is written: all of it, and the URL of each request. */
  const log = async () => {
    await new Promise((r) => setTimeout(r, 50));
    return {
      logged: lines.join(''),
      urls: lines
        .map((l) => JSON.parse(l))
        .filter((e) => e.req)
        .map((e) => e.req.url),
    };
  };

  it('keeps session tokens and artifact tokens out of logged URLs', async () => {
    const sessionToken = 'SeSsIoNtOkEnThatMustNotBeLogged0123456789';
    const fileToken = 'FiLeToKeNthatMustNotBeLogged0123';
    await fetch(`${t.base}/browser-sandbox-ws?sessionId=abc&token=${sessionToken}`);
    await fetch(`${t.base}/live-view?token=${sessionToken}&sessionId=abc`);
    await fetch(`${t.base}/files/${fileToken}/shot.png`);

    const { logged, urls } = await log();
    expect(logged).not.toContain(sessionToken);
    expect(logged).not.toContain(fileToken);
    // The rest of the request is still there to read.
    expect(urls).toEqual([
      '/browser-sandbox-ws?sessionId=abc&token=[redacted]',
      '/live-view?token=[redacted]&sessionId=abc',
      '/files/[redacted]/shot.png',
    ]);
  });

  it('redacts tokens whose names are percent-encoded, as the router and query parser decode them', async () => {
    const sessionToken = 'EnCoDeDsEsSiOnToKeNnotForLogs987654321';
    const fileToken = 'EnCoDeDfIlEtOkEnNotForLogs4567';
    lines.length = 0;
    await fetch(`${t.base}/live-view?sessionId=abc&%74oken=${sessionToken}`);
    await fetch(`${t.base}/live-view?sessionId=abc&%54%4F%4B%45%4E=${sessionToken}`);
    await fetch(`${t.base}/%66iles/${fileToken}/shot.png`);
    await fetch(`${t.base}/%66%69%6c%65%73/${fileToken}`);

    const { logged, urls } = await log();
    expect(logged).not.toContain(sessionToken);
    expect(logged).not.toContain(fileToken);
    expect(urls).toEqual([
      '/live-view?sessionId=abc&%74oken=[redacted]',
      '/live-view?sessionId=abc&%54%4F%4B%45%4E=[redacted]',
      '/files/[redacted]/shot.png',
      '/files/[redacted]',
    ]);
  });

  it('redacts tokens in any spelling a lenient router, proxy or query parser reads as the name', async () => {
    const sessionToken = 'OdDsPeLlEdSeSsIoNtOkEnNotForLogs24680';
    const fileToken = 'OdDsPeLlEdFiLeToKeNnotForLogs1357';
    lines.length = 0;
    // Raw sockets: fetch would tidy some of these spellings before they left.
    const send = (path: string) =>
      new Promise<void>((resolve, reject) => {
        const socket = connect(t.port, '127.0.0.1', () =>
          socket.end(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
        );
        socket.on('data', () => {});
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
    const paths = [
      `//files/${fileToken}/shot.png`,
      `/files;x/${fileToken}/shot.png`,
      `/%2566iles/${fileToken}/shot.png`,
      `/x/../files/${fileToken}`,
      `/live-view?sessionId=abc&token[]=${sessionToken}`,
      `/live-view?sessionId=abc&%2574oken=${sessionToken}`,
      `/live-view?TOKEN[0]=${sessionToken}`,
    ];
    for (const path of paths) await send(path);

    const { logged, urls } = await log();
    expect(urls).toHaveLength(paths.length);
    expect(logged).not.toContain(sessionToken);
    expect(logged).not.toContain(fileToken);
    expect(urls).toEqual([
      '/files/[redacted]/shot.png',
      '/files/[redacted]/shot.png',
      '/files/[redacted]/shot.png',
      '/files/[redacted]',
      '/live-view?sessionId=abc&token[]=[redacted]',
      '/live-view?sessionId=abc&%2574oken=[redacted]',
      '/live-view?TOKEN[0]=[redacted]',
    ]);
  });
});

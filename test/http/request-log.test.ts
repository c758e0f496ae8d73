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

  // `S` stands for the session token in each path, `F` for the file token.
  it.each([
    {
      what: 'keeps session tokens and artifact tokens out of logged URLs',
      sessionToken: 'SeSsIoNtOkEnThatMustNotBeLogged0123456789',
      fileToken: 'FiLeToKeNthatMustNotBeLogged0123',
      paths: [
        '/browser-sandbox-ws?sessionId=abc&token=S',
        '/live-view?token=S&sessionId=abc',
        '/files/F/shot.png',
      ],
      // The rest of the request is still there to read.
      urls: [
        '/browser-sandbox-ws?sessionId=abc&token=[redacted]',
        '/live-view?token=[redacted]&sessionId=abc',
        '/files/[redacted]/shot.png',
      ],
    },
    {
      what: 'redacts tokens whose names are percent-encoded, as the router and query parser decode them',
      sessionToken: 'EnCoDeDsEsSiOnToKeNnotForLogs987654321',
      fileToken: 'EnCoDeDfIlEtOkEnNotForLogs4567',
      paths: [
        '/live-view?sessionId=abc&%74oken=S',
        '/live-view?sessionId=abc&%54%4F%4B%45%4E=S',
        '/%66iles/F/shot.png',
        '/%66%69%6c%65%73/F',
      ],
      urls: [
        '/live-view?sessionId=abc&%74oken=[redacted]',
        '/live-view?sessionId=abc&%54%4F%4B%45%4E=[redacted]',
        '/files/[redacted]/shot.png',
        '/files/[redacted]',
      ],
    },
  ])('$what', async ({ sessionToken, fileToken, paths, urls: expected }) => {
    lines.length = 0;
    for (const path of paths)
      await fetch(
        `${t.base}${path.replace(/=S\b/, `=${sessionToken}`).replace(/\/F\b/, `/${fileToken}`)}`,
      );

    const { logged, urls } = await log();
    expect(logged).not.toContain(sessionToken);
    expect(logged).not.toContain(fileToken);
    expect(urls).toEqual(expected);
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

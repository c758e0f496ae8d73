import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeMainContent } from '../../src/page/main-content-signals.ts';
import {
  awaitingRender,
  detectBlock,
  needsJavaScript,
  visibleText,
} from '../../src/page/page-signals.ts';

const article = readFileSync(
  new URL('../fixtures/site/public/article.html', import.meta.url),
  'utf8',
);
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

describe('visibleText', () => {
  it('drops comments, raw-text elements and tags, counts an entity as one character, collapses whitespace', () => {
    const html =
      '<head><style>p{}</style><script>var a = "<b>x</b>";</script></head><body><!-- <p>gone</p> -->\n<p>Fish&nbsp;&amp;  chips</p><svg><text>no</text></svg> a < b <br/>end</body>';
    expect(visibleText(html)).toBe('Fish _ chips a end');
  });

  it('keeps a stray "<" that opens no tag as text', () => {
    expect(visibleText('<p>1 <> 2</p>')).toBe('1 <> 2');
  });

  it('stops reading just past the limit, so a long page is known to be long without reading all of it', () => {
    const html = `<body>${'<p>twelve chars</p>'.repeat(1000)}</body>`;
    expect(visibleText(html)).toHaveLength(12 * 1000 + 999);
    const bounded = visibleText(html, 100);
    expect(bounded.length).toBeGreaterThan(100);
    expect(bounded.length).toBeLessThan(120);
    expect(visibleText(html)).toContain(bounded);
  });
});

describe('detectBlock', () => {
  it('recognises Cloudflare-style JavaScript challenges', () => {
    expect(
      detectBlock(page('Just a moment...', '<p>Checking if the site connection is secure</p>'))
        ?.kind,
    ).toBe('challenge');
    expect(
      detectBlock(
        page(
          'x',
          '<form id="challenge-form" action="/?__cf_chl_f_tk=1"></form><script>window._cf_chl_opt={}</script>',
        ),
      )?.kind,
    ).toBe('challenge');
    expect(
      detectBlock(page('Wait', '<p>Please enable JavaScript and cookies to continue</p>'))?.kind,
    ).toBe('challenge');
  });

  it('recognises captcha walls, unusual-traffic pages and access denied served with 200', () => {
    expect(detectBlock(page('Verify', '<div class="g-recaptcha" data-sitekey="k"></div>'))).toEqual(
      { kind: 'blocked', reason: 'captcha wall' },
    );
    expect(
      detectBlock(
        page(
          'Sorry',
          '<p>Our systems have detected unusual traffic from your computer network.</p>',
        ),
      )?.reason,
    ).toMatch(/unusual traffic/);
    expect(
      detectBlock(
        page(
          'Access Denied',
          "<h1>Access Denied</h1><p>You don't have permission to access this server.</p>",
        ),
      )?.kind,
    ).toBe('blocked');
    expect(
      detectBlock(page('Shop', '<p>Automated browsers are not allowed on this site.</p>'))?.reason,
    ).toBe('automation detected');
    expect(
      detectBlock(page('Attention Required! | Cloudflare', '<p>Sorry, you have been blocked</p>'))
        ?.kind,
    ).toBe('blocked');
  });

  it('treats an almost empty 403, 429 or 503 as a wall, but not a 404 or a full 403 page', () => {
    expect(detectBlock(page('', '<p>Request rejected.</p>'), 403)).toEqual({
      kind: 'blocked',
      reason: 'HTTP 403 with almost no content',
    });
    expect(detectBlock(page('', ''), 429)?.kind).toBe('blocked');
    expect(detectBlock(page('Not here', '<p>Request rejected.</p>'), 404)).toBeUndefined();
    expect(
      detectBlock(
        page('Members only', `<p>${'This archive is for members. '.repeat(20)}</p>`),
        403,
      ),
    ).toBeUndefined();
  });

  it('takes a vendor script or captcha widget as a sign only on a page with almost no content', () => {
    const cloudflarePassive =
      '<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>';
    const incapsula =
      '<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3"></script>';
    const turnstileScript =
      '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>';
    const commentForm = '<form><div class="g-recaptcha" data-sitekey="k"></div></form>';
    for (const extra of [cloudflarePassive, incapsula, turnstileScript, commentForm])
      expect(detectBlock(article.replace('</body>', `${extra}</body>`))).toBeUndefined();
    const shortForum = page(
      'Threads',
      `<p>${'A short reply in a forum thread. '.repeat(25)}</p>${cloudflarePassive}`,
    );
    expect(detectBlock(shortForum)).toBeUndefined();
    expect(detectBlock(page('', `<p>Ray ID: 1234</p>${cloudflarePassive}`))?.kind).toBe(
      'challenge',
    );
    expect(
      detectBlock(
        page('', `<iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe>`),
      )?.kind,
    ).toBe('blocked');
  });

  it('leaves real pages alone, including long ones that mention captchas or access', () => {
    expect(detectBlock(article)).toBeUndefined();
    const essay = page(
      'On captchas',
      `<article><h1>Why captcha walls fail</h1><p>${'Access denied pages and unusual traffic from your computer network are common. '.repeat(60)}</p></article>`,
    );
    expect(detectBlock(essay)).toBeUndefined();
    expect(detectBlock(page('Contact', '<p>Write to us.</p>'))).toBeUndefined();
  });
});

describe('needsJavaScript', () => {
  it('flags an empty app root, a noscript plea and script-only pages', () => {
    expect(
      needsJavaScript(page('App', '<div id="root"></div><script src="/app.js"></script>')),
    ).toMatch(/app root/);
    expect(needsJavaScript(page('App', '<div id="__next"> </div>'))).toMatch(/app root/);
    expect(
      needsJavaScript(
        page(
          'App',
          '<noscript>You need to enable JavaScript to run this app.</noscript><main></main>',
        ),
      ),
    ).toMatch(/noscript/);
    expect(needsJavaScript(page('', '<script>document.write("hi")</script>'))).toMatch(/scripts/);
  });

  it('does not flag pages whose HTML carries the content', () => {
    expect(needsJavaScript(article)).toBeUndefined();
    expect(needsJavaScript(page('Short', '<p>A short but complete page.</p>'))).toBeUndefined();
    expect(
      needsJavaScript(
        page(
          'SSR',
          `<div id="root"><p>${'Rendered on the server. '.repeat(20)}</p></div><noscript>enable JavaScript</noscript>`,
        ),
      ),
    ).toBeUndefined();
  });
});

describe('awaitingRender', () => {
  it('is true only while a script app root is empty', () => {
    expect(
      awaitingRender(page('App', '<div id="app"></div><noscript>enable JavaScript</noscript>')),
    ).toBe(true);
    expect(
      awaitingRender(
        page('App', '<div id="app"><p>Rendered.</p></div><noscript>enable JavaScript</noscript>'),
      ),
    ).toBe(false);
    expect(awaitingRender(page('Tiny', '<p>ok</p><script>1</script>'))).toBe(false);
  });
});

describe('judgeMainContent', () => {
  const chrome = (main: string, scripts = '<script src="/app.js"></script>') =>
    page(
      'Site',
      `<header><nav>Home Products Blog About</nav></header>${main}<footer><p>Acme Corporation is a fictional company that makes everything, from anvils to rocket skates, since 1949. Read our history and visit the museum.</p></footer>${scripts}`,
    );
  const footerText =
    'Acme Corporation is a fictional company that makes everything, from anvils to rocket skates, since 1949. Read our history and visit the museum.';

  it('sees a placeholder or thin content through the extracted main content', () => {
    expect(judgeMainContent('Loading…', chrome('<main>Loading…</main>'))).toMatchObject({
      kind: 'placeholder',
    });
    expect(
      judgeMainContent('Please enable JavaScript to use this site.', chrome('<main></main>')),
    ).toMatchObject({ kind: 'placeholder' });
    expect(judgeMainContent('Checking your browser…', chrome('<main></main>'))).toMatchObject({
      kind: 'placeholder',
    });
    expect(judgeMainContent('# Shop', chrome('<main><h1>Shop</h1></main>'))).toMatchObject({
      kind: 'thin',
    });
  });

  it('looks into <main> when the extractor fell back to the layout', () => {
    expect(
      judgeMainContent(footerText, chrome('<main><div class="spinner">Loading…</div></main>')),
    ).toMatchObject({ kind: 'placeholder', reason: expect.stringContaining('<main>') });
    expect(
      judgeMainContent(footerText, chrome('<main><div class="skeleton"></div></main>')),
    ).toMatchObject({ kind: 'placeholder', reason: expect.stringContaining('skeleton') });
    expect(judgeMainContent(footerText, chrome('<main><div id="app"></div></main>'))).toMatchObject(
      { kind: 'thin' },
    );
    expect(judgeMainContent(footerText, chrome('<div id="root"></div>'))).toMatchObject({
      kind: 'thin',
    });
  });

  it('accepts real main content, and any page without scripts', () => {
    const story =
      'The harbour seals haul out on the sandbar at every low tide, and the rangers count them from the dunes with long lenses.';
    expect(judgeMainContent(story, chrome(`<main><p>${story}</p></main>`))).toBeUndefined();
    // Real content elsewhere: a spinner left in <main> is no reason to wait.
    expect(
      judgeMainContent(
        story,
        chrome(`<main><div class="spinner">Loading…</div></main><div><p>${story}</p></div>`),
      ),
    ).toBeUndefined();
    expect(judgeMainContent('Loading…', chrome('<main>Loading…</main>', ''))).toBeUndefined();
    // An article about loading bays is an article.
    const bays = `Loading… bays are where the trucks stop. ${story} ${story} ${story}`;
    expect(judgeMainContent(bays, chrome(`<main><p>${bays}</p></main>`))).toBeUndefined();
  });
});

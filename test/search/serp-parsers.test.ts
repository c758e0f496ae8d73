import { describe, expect, it } from 'vitest';
import {
  bingNoResults,
  bingRefusal,
  decodeBingHref,
  googleNoResults,
  googleRefusal,
  parseBingSerp,
  parseGoogleSerp,
  type SearchHit,
} from '../../src/search/index.ts';
import { BING_NO_RESULTS } from '../fixtures/bing-serp-server.ts';
import { GOOGLE_NO_RESULTS } from '../fixtures/google-serp-server.ts';
import { savedSerp as page } from '../fixtures/saved-serp.ts';

const GOOGLE = 'https://www.google.com/search?q=x';
const BING = 'https://www.bing.com/search?q=x';

/** A saved results page and what its parser must read from it. */
interface SavedPage {
  name: string;
  path: string;
  count?: number;
  urls?: string[];
  hosts?: string[];
  titles?: string[];
  /** Whole results at these places (negative from the end). */
  at?: Record<number, SearchHit>;
  /** Some fields of the results at these places. */
  like?: Record<number, Partial<SearchHit>>;
  /** No result URL may match this. */
  never?: RegExp;
}

const PARSERS = {
  google: { parse: parseGoogleSerp, refusal: googleRefusal, base: GOOGLE },
  bing: { parse: parseBingSerp, refusal: bingRefusal, base: BING },
};

/** Reads the saved page with its provider's parser and checks what the case expects of it; a real results page is never a refusal. */
function expectRead(provider: keyof typeof PARSERS, c: SavedPage): void {
  const { parse, refusal, base } = PARSERS[provider];
  const html = page(c.path);
  const hits = parse(html, base);
  if (c.count !== undefined) expect(hits).toHaveLength(c.count);
  if (c.urls) expect(hits.map((h) => h.url)).toEqual(c.urls);
  if (c.hosts) expect(hits.map((h) => new URL(h.url).hostname)).toEqual(c.hosts);
  if (c.titles) expect(hits.map((h) => h.title)).toEqual(c.titles);
  for (const [i, hit] of Object.entries(c.at ?? {})) expect(hits.at(Number(i))).toEqual(hit);
  for (const [i, hit] of Object.entries(c.like ?? {}))
    expect(hits.at(Number(i))).toMatchObject(hit);
  if (c.never) expect(hits.filter((h) => c.never!.test(h.url))).toEqual([]);
  expect(refusal({ url: base, statusCode: 200, html }, hits)).toBeUndefined();
}

const GOOGLE_PAGES: SavedPage[] = [
  {
    name: 'every organic result of the 2025 desktop page (pt-BR, "AI Tools"), skipping the video carousel',
    path: 'google/js-2025-03_ptBR_ai-tools_raw.html',
    hosts: [
      'www.synthesia.io',
      'aitoolsdirectory.com',
      'zapier.com',
      'cloud.google.com',
      'aitoptools.com',
      'agenciaexplorer.com.br',
      'webcatalog.io',
      'opentools.ai',
      'www.futuretools.io',
      'ai.google',
    ],
    at: {
      0: {
        url: 'https://www.synthesia.io/post/ai-tools',
        title: 'The 50 Best AI Tools in 2025 (Tried & Tested)',
        description:
          'há 7 dias — Explore 50 top AI tools across 21 categories, with insights on use cases, features, and pricing.',
      },
      2: {
        url: 'https://zapier.com/blog/best-ai-productivity-tools/',
        title: 'The best AI productivity tools in 2025',
        description:
          "The list you're about to see contains a collection of great AI productivity tools tested by Zapier's app review team, myself included.",
      },
    },
    like: { 9: { title: 'Making AI helpful for everyone - Google AI - Google AI' } },
    never: /translate\.google|youtube\.com/,
  },
  {
    name: 'the re-indented 2025 page (en-BE, "react github") with whitespace collapsed',
    path: 'google/js-2025-10_enBE_react-github_prettyprinted.html',
    count: 8,
    at: {
      0: {
        url: 'https://github.com/facebook/react',
        title: 'facebook/react: The library for web and native user interfaces.',
        description:
          'The main purpose of this repository is to continue evolving React core, making it faster and easier to use. Development of React happens in the open on GitHub, ...',
      },
      4: {
        url: 'https://react.dev/',
        title: 'React',
        description:
          'React lets you build user interfaces out of individual pieces called components. Create your own React components like Thumbnail, LikeButton, and Video.',
      },
    },
    like: {
      7: {
        url: 'https://www.reddit.com/r/reactjs/comments/1baeflq/react_on_github/',
        title: 'React on Github : r/reactjs',
      },
    },
  },
  {
    name: 'the 2023 desktop page, without its "More results" link into Google itself',
    path: 'google/js-2023-05_desktop_en_google.html',
    urls: [
      'https://google.com/',
      'https://www.google.com/',
      'https://www.google.com/account/about/',
      'https://www.google.com/maps',
      'https://www.google.com/business/',
      'https://www.google.com/imghp?hl=EN',
      'https://www.google.com/docs/about/',
      'https://maps.google.com/',
      'https://images.google.com/',
    ],
    like: {
      2: { description: 'In your Google Account, you can see and manage your info, activity, ...' },
    },
  },
  {
    name: 'the mobile page, whose titles are role=heading elements',
    path: 'google/js-2023-05_mobile_en_google.html',
    titles: ['Google', 'Google', 'Google Account', 'Google Play'],
    at: {
      2: {
        url: 'https://www.google.com/account/about/',
        title: 'Google Account',
        description: 'In your Google Account, you can see and manage your info, activity, ...',
      },
    },
  },
  {
    // `/url?q=https://www.google.com/imghp%3Fhl%3DEN` decodes to the query string it carries.
    name: 'the basic (no-JS) page, its /url?q= redirects decoded and the snippet kept apart from the sitelinks',
    path: 'google/nojs-2023-06_basic_en_google_url-q-redirects.html',
    count: 10,
    at: {
      0: {
        url: 'https://www.google.com/',
        title: 'Google',
        description:
          "Search the world's information, including webpages, images, videos and more. Google has many special features to help you find exactly what you're looking for.",
      },
      4: {
        url: 'https://www.google.com/imghp?hl=EN',
        title: 'Images - Google',
        description: 'Google Images. The most comprehensive image search on the web.',
      },
      9: {
        url: 'https://edu.google.com/workspace-for-education/classroom/',
        title: 'Classroom Management Tools & Resources - Google for Education',
        description: 'Google Classroom is your all-in-one place for teaching and learning.',
      },
    },
    never: /\/url\?/,
  },
  {
    name: 'the 100-result basic page',
    path: 'google/nojs-2023-06_basic_en_google_num100.html',
    count: 99,
    at: {
      [-1]: {
        url: 'https://store.google.com/category/connected_home?hl=en-US',
        title: 'Google Nest, Your Smart Home Starts Here',
        description:
          'Build a smarter home, one device at a time with Google Nest home automation ...',
      },
    },
  },
];

const BING_PAGES: SavedPage[] = [
  {
    name: 'the 2026 page, every ck/a redirect decoded',
    path: 'bing/www-2026-10_en_trimmed_10results_ckA-redirects.html',
    urls: [
      'https://pypi.org/project/searchts/',
      'https://github.com/capad-xyz/searchts',
      'https://github.com/Mineru98/searchts',
      'https://www.bing.com/',
      'https://glama.ai/mcp/servers/capad-xyz/searchts',
      'https://www.geeksforgeeks.org/typescript/typescript-string-search-method/',
      'https://www.google.com/intl/en_in/search/howsearchworks/',
      'https://en.wikipedia.org/wiki/Search_engine',
      'https://www.pulsemcp.com/servers/capad-xyz-searchts',
      'https://www.google.com/xhtml/search',
    ],
    at: {
      0: {
        url: 'https://pypi.org/project/searchts/',
        title: 'searchts · PyPI',
        description:
          'Jun 18, 2026 · searchts 0.11.1 The missing layer between AI and the web. Open-source escalating unlocker (browser-fingerprinted …',
      },
      7: {
        url: 'https://en.wikipedia.org/wiki/Search_engine',
        title: 'Search engine - Wikipedia',
        description:
          'The first internet search engines predate the debut of the Web in December 1990: WHOIS user search dates back to 1982, [7] and …',
      },
    },
  },
  {
    name: 'the 2021 no-JS page',
    path: 'bing/nojs-2021-01_en_bing.html',
    count: 10,
    at: {
      2: {
        url: 'https://www.rtve.es/infantil/series/bing/',
        title: 'Bing - Vídeos y juegos de Clan TV - RTVE.es',
        description:
          '6/10/2016 · Bing, serie online en Clan TV, RTVE.es. Todos los capítulos online de Bing completos y gratis',
      },
    },
    like: {
      6: {
        url: 'https://es.wikipedia.org/wiki/Bing',
        title: 'Microsoft Bing - Wikipedia, la enciclopedia libre',
      },
    },
  },
  {
    name: 'the 2021 browser-saved page, without the result that points into Bing News',
    path: 'bing/desktop-js-2021-01_en-GB_bing_saved-from-browser.html',
    urls: [
      'https://www.bing.com/',
      'https://www.microsoft.com/en-us/p/microsoft-bing/9nnhpwj0r912',
      'https://twitter.com/Bing',
      'https://www.microsoft.com/en-us/download/details.aspx?id=41702',
      'https://www.microsoft.com/en-us/bing/bing-wallpaper',
      'https://www.msn.com/',
    ],
    at: {
      2: {
        url: 'https://twitter.com/Bing',
        title: 'Bing (@Bing) | Twitter',
        description: 'The latest tweets from @Bing',
      },
    },
  },
];

describe('Google results page parser', () => {
  it.each(GOOGLE_PAGES.map((c) => [c.name, c] as const))('reads %s', (_name, c) =>
    expectRead('google', c),
  );

  it('recognises the "unusual traffic" captcha and the enable-JavaScript shell as refusals, and real pages as answers', () => {
    const sorry = page('google/sorry-2026-07_unusual-traffic_recaptcha.html');
    expect(parseGoogleSerp(sorry, GOOGLE)).toEqual([]);
    expect(
      googleRefusal(
        { url: 'https://www.google.com/sorry/index?continue=x', statusCode: 429, html: sorry },
        [],
      ),
    ).toMatch(/unusual traffic/);
    // Recognised by its form even when served without the redirect or the status.
    expect(googleRefusal({ url: GOOGLE, statusCode: 200, html: sorry }, [])).toMatch(/captcha/);

    const shell = page('google/enablejs-2026-07_ru_js-challenge-shell_truncated30000B.html');
    const shellHits = parseGoogleSerp(shell, GOOGLE);
    expect(shellHits).toEqual([]);
    expect(googleRefusal({ url: GOOGLE, statusCode: 200, html: shell }, shellHits)).toMatch(
      /requires JavaScript/,
    );

    const consent =
      '<html><body><form action="https://consent.google.com/save" method="post"><button>Accept all</button></form></body></html>';
    expect(
      googleRefusal(
        { url: 'https://consent.google.com/ml?continue=x', statusCode: 200, html: consent },
        [],
      ),
    ).toMatch(/consent/);

    // A real results page also mentions the enable-JS retry in its noscript: not a refusal.
    const real = page('google/js-2025-10_enBE_react-github_prettyprinted.html');
    expect(
      googleRefusal({ url: GOOGLE, statusCode: 200, html: real }, parseGoogleSerp(real, GOOGLE)),
    ).toBeUndefined();
  });
});

describe('Bing results page parser', () => {
  it.each(BING_PAGES.map((c) => [c.name, c] as const))('reads %s', (_name, c) =>
    expectRead('bing', c),
  );

  it("drops ck/a links whose target is relative (Bing's own pages)", () => {
    const relative = Buffer.from('/images/search?q=cats').toString('base64url');
    expect(
      decodeBingHref(`https://www.bing.com/ck/a?!&&p=abc&u=a1${relative}&ntb=1`, BING),
    ).toBeUndefined();
    const absolute = Buffer.from('https://example.org/a?b=1').toString('base64url');
    expect(decodeBingHref(`/ck/a?!&&p=abc&u=a1${absolute}&ntb=1`, BING)?.href).toBe(
      'https://example.org/a?b=1',
    );
  });
});

describe('telling a page with no results from a page the parser cannot read', () => {
  const googlePages = [
    'google/js-2025-03_ptBR_ai-tools_raw.html',
    'google/js-2025-10_enBE_react-github_prettyprinted.html',
    'google/js-2023-05_desktop_en_google.html',
    'google/js-2023-05_mobile_en_google.html',
    'google/nojs-2023-06_basic_en_google_url-q-redirects.html',
    'google/nojs-2023-06_basic_en_google_num100.html',
  ];
  const bingPages = [
    'bing/www-2026-10_en_trimmed_10results_ckA-redirects.html',
    'bing/desktop-js-2021-01_en-GB_bing_saved-from-browser.html',
    'bing/nojs-2021-01_en_bing.html',
  ];
  /** Result titles that are no longer headings, as a redesign would leave them. */
  const unheaded = (html: string) =>
    html
      .replace(/<h3\b/g, '<div')
      .replace(/<\/h3>/g, '</div>')
      .replace(/role="heading"/g, 'role="note"');
  const UNRELATED = `<!doctype html><html><head><title>Results</title></head><body><main class="serp"><article class="hit">
<a href="https://react.dev/">React</a><p>The library for web and native user interfaces.</p></article></main></body></html>`;

  it.each(googlePages)(
    'does not take the real Google page %s for a no-results page, even with its titles renamed',
    (path) => {
      const html = page(path);
      expect(googleNoResults(html, GOOGLE)).toBe(false);
      expect(parseGoogleSerp(unheaded(html), GOOGLE)).toEqual([]);
      expect(googleNoResults(unheaded(html), GOOGLE)).toBe(false);
      // It still carries Google's noscript pointer to the enable-JS retry, but is no JavaScript shell.
      expect(
        googleRefusal({ url: GOOGLE, statusCode: 200, html: unheaded(html) }, []),
      ).toBeUndefined();
    },
  );

  it('recognises Google saying it found nothing: the "did not match" card, or an empty results area in any language', () => {
    expect(googleNoResults(GOOGLE_NO_RESULTS, GOOGLE)).toBe(true);
    const card = `<html><body><div id="topstuff"><div class="card-section"><p role="heading">Your search - <b>zzqx</b> - did not match any documents.</p>
<p>Suggestions:</p><ul><li>Try different keywords.</li></ul></div></div><footer><a href="https://policies.google.com/privacy">Privacy</a></footer></body></html>`;
    expect(googleNoResults(card, GOOGLE)).toBe(true);
    const german = `<html lang="de"><body><div id="search"><div id="rso"></div><a href="/search?q=zzqx&amp;nfpr=1">Stattdessen suchen nach</a></div></body></html>`;
    expect(googleNoResults(german, GOOGLE)).toBe(true);
  });

  it('does not take a page of unfamiliar markup, or a no-results card beside links to results, for a no-results page', () => {
    expect(googleNoResults(UNRELATED, GOOGLE)).toBe(false);
    expect(googleNoResults('<html><body><p>Something went wrong.</p></body></html>', GOOGLE)).toBe(
      false,
    );
    const mixed = GOOGLE_NO_RESULTS.replace(
      '<div id="rso"></div>',
      '<div id="rso"><a href="https://react.dev/">React</a></div>',
    );
    expect(googleNoResults(mixed, GOOGLE)).toBe(false);
    expect(
      googleNoResults(page('google/sorry-2026-07_unusual-traffic_recaptcha.html'), GOOGLE),
    ).toBe(false);
  });

  it.each(bingPages)(
    'does not take the real Bing page %s for a no-results page, even with its result items renamed',
    (path) => {
      const html = page(path);
      const renamed = html.replace(/\bb_algo\b/g, 'b_result');
      expect(bingNoResults(html, BING)).toBe(false);
      expect(parseBingSerp(renamed, BING)).toEqual([]);
      expect(bingNoResults(renamed, BING)).toBe(false);
    },
  );

  it('recognises Bing saying it found nothing, and not a page of unfamiliar markup', () => {
    expect(bingNoResults(BING_NO_RESULTS, BING)).toBe(true);
    const message = `<html><body><main><h1>There are no results for <strong>zzqx</strong></h1><ul><li>Check your spelling</li></ul></main></body></html>`;
    expect(bingNoResults(message, BING)).toBe(true);
    expect(bingNoResults(UNRELATED, BING)).toBe(false);
    expect(
      bingNoResults(
        BING_NO_RESULTS.replace(
          '</ol>',
          '<li class="b_ans"><a href="https://react.dev/">React</a></li></ol>',
        ),
        BING,
      ),
    ).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { convertHtml } from '../../src/content/index.ts';
import { FORUM_NOSCRIPT_COPY, markers } from '../fixtures/page-types.ts';

const URL_ = 'https://news.example/section/story.html';

const para = (topic: string) =>
  `<p>${topic} is described here at enough length for a reader to follow, with several clauses, commas, and the sort of ` +
  `detail that makes a paragraph of real prose rather than a caption or a menu label, which matters to the classifier.</p>`;

function page(body: string, head = ''): string {
  return `<!doctype html><html><head><title>Daily Example: news from the river valley and the hills beyond</title>${head}</head><body>${body}</body></html>`;
}

const markdown = (html: string, onlyMainContent = true) =>
  convertHtml({ html, url: URL_, format: 'markdown', onlyMainContent }).content;

const ARTICLE = page(`
  <header><a href="/">Daily Example</a><nav><ul><li><a href="/world">World desk</a></li><li><a href="/sport">Sport desk</a></li></ul></nav></header>
  <div class="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
  <main>
    <article>
      <h1>River levels reach a record</h1>
      <div class="share-tools"><a href="https://social.example/share">Share on Social</a></div>
      ${para('The flood')}
      ${para('The response')}
      <div style="display: none">Invisible tracking text</div>
      <div class="newsletter-signup">Get the morning briefing in your inbox every day</div>
      ${para('The forecast')}
    </article>
  </main>
  <aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Celebrity gossip roundup</a></li></ul></aside>
  <footer>Copyright Daily Example Group. All rights reserved.</footer>`);

describe('convertHtml main content', () => {
  it('keeps what sits in inline elements inside a kept paragraph', () => {
    const html = page(`<main><article><h1>Harbour works</h1>${para('The dredging')}
      <p><span><span>KEEP-NESTED-SPAN The channel is wider now, and the ferries run at low water again, with room to spare.</span></span></p>
      <p><a href="/plan"><strong>KEEP-BOLD-LINK The plan</strong></a> set out the cost, the timetable, and the order of the work.</p>
      ${para('The reopening')}</article></main>`);
    const md = markdown(html);
    expect(md).toContain('KEEP-NESTED-SPAN The channel is wider now');
    expect(md).toContain(
      '[**KEEP-BOLD-LINK The plan**](https://news.example/plan) set out the cost',
    );
  });

  it('keeps the article and drops page furniture', () => {
    const md = markdown(ARTICLE);
    expect(md).toMatch(/^# River levels reach a record$/m);
    expect(md).toContain('The flood is described here');
    expect(md).toContain('The forecast is described here');
    for (const junk of [
      'World desk',
      'cookies',
      'Share on Social',
      'Invisible tracking',
      'morning briefing',
      'Celebrity gossip',
      'All rights reserved',
    ]) {
      expect(md).not.toContain(junk);
    }
  });

  it('converts the whole body when onlyMainContent is false', () => {
    const md = markdown(ARTICLE, false);
    expect(md).toContain('The flood is described here');
    expect(md).toContain('World desk');
    expect(md).toContain('Celebrity gossip');
    expect(md).toContain('All rights reserved');
  });

  it('returns the main-content fragment as html, with h1 kept', () => {
    const out = convertHtml({ html: ARTICLE, url: URL_, format: 'html', onlyMainContent: true });
    expect(out.content).toContain('<h1');
    expect(out.content).toContain('The forecast is described here');
    expect(out.content).not.toContain('All rights reserved');
    expect(out.content).not.toContain('<html');
  });

  it('renders GFM tables, promoting the first row when there is no header', () => {
    const md = markdown(
      page(`<article><h1>Results</h1>${para('The season')}
        <table><thead><tr><th>Team</th><th>Points</th></tr></thead>
          <tbody><tr><td>Harbour FC</td><td>42</td></tr><tr><td>Hill | Dale</td><td>38</td></tr></tbody></table>
        <table><tr><td>Year</td><td>Champion</td></tr><tr><td colspan="2">Not held</td></tr><tr><td>2024</td><td>Harbour FC</td></tr></table>
        ${para('The next season')}</article>`),
    );
    expect(md).toContain(
      '| Team | Points |\n| --- | --- |\n| Harbour FC | 42 |\n| Hill \\| Dale | 38 |',
    );
    expect(md).toContain(
      '| Year | Champion |\n| --- | --- |\n| Not held | |\n| 2024 | Harbour FC |',
    );
  });

  it('leaves out table rows left with nothing in any cell (a placeholder image, hidden text)', () => {
    const md = markdown(
      page(`<article><h1>Results</h1>${para('The season')}
        <table><tr><th>Team</th><th>Points</th></tr><tr><td></td><td> </td></tr>
          <tr><td>Harbour FC</td><td>42</td></tr><tr><td><a href="/teams/old"><img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" alt=""></a></td><td><span hidden>7</span></td></tr>
          <tr><td>Hill</td><td>38</td></tr></table>
        ${para('The next season')}</article>`),
    );
    expect(md).toContain('| Team | Points |\n| --- | --- |\n| Harbour FC | 42 |\n| Hill | 38 |');
    expect(md).not.toMatch(/^\|(\s*\|)+\s*$/m);
  });

  it('treats a table of tables as layout, not data', () => {
    const md = markdown(
      page(
        `<table><tr><td><table><tr><td>Left menu</td></tr></table></td><td><h1>Old site</h1>${para('The layout')}${para('The body')}</td></tr></table>`,
      ),
      false,
    );
    expect(md).toContain('The layout is described here');
    expect(md).not.toMatch(/\| --- \| --- \|/);
  });

  it('fences code with its language', () => {
    const md = markdown(
      page(`<article><h1>Parsing dates</h1>${para('The parser')}
        <pre><code class="language-typescript">const d = new Date('2024-01-01');\nconsole.log(d);</code></pre>
        <pre class="highlight-source-python">print("hi")</pre>
        ${para('The caveat')}</article>`),
    );
    expect(md).toContain("```typescript\nconst d = new Date('2024-01-01');\nconsole.log(d);\n```");
    expect(md).toContain('```python\nprint("hi")\n```');
  });

  it("drops a heading's permalink glyph and a footnote's link back, and keeps the footnote's number", () => {
    const md = markdown(
      page(`<article><h1>Rotating the logs<a href="#top" title="Permalink">§</a></h1>${para('The rotation')}
        <h2 id="when">When<a class="headerlink" href="#when">¶</a></h2>
        <h3 id="how"><a class="anchor" href="#how">#</a>How</h3>
        <p>Rotate daily<a href="#fn1" id="r1"><sup>1</sup></a>, as the <a href="#how">how section</a> says.</p>
        ${para('The archive')}
        <ol><li id="fn1">Daily suits most services. <a href="#r1">↩︎</a></li></ol></article>`),
      false,
    );
    expect(md).toContain('# Rotating the logs\n');
    expect(md).toContain('\n## When\n');
    expect(md).toContain('\n### How\n');
    expect(md).toContain('Rotate daily[1](#fn1), as the [how section](#how) says.');
    expect(md).toMatch(/\n1\. Daily suits most services\.$/);
    for (const glyph of ['§', '¶', '[#]', '↩']) expect(md, glyph).not.toContain(glyph);
  });

  it("drops an icon font's glyphs, which name nothing outside that font", () => {
    const md = markdown(
      page(`<article><h1>Sizes<a href="#sizes">\uf0c1</a></h1>${para('The sizing')}
        <p><a href="/cart"><i class="fa fa-cart">\uf07a</i></a> Order by noon<span>\uf00c</span> for dispatch today.</p>
        ${para('The returns')}</article>`),
    );
    expect(md).toContain('# Sizes\n');
    expect(md).toContain('Order by noon for dispatch today.');
    expect(md).not.toMatch(/\p{Co}|\[\]\(/u);
  });

  it('writes emphasis CommonMark reads: spaces and breaks outside its delimiters, bold in bold once, runs side by side as one, across a span too', () => {
    const md = markdown(
      page(`<article><h1>Caring for linen</h1>${para('The fabric')}
        <h2><strong> Washing </strong></h2>
        <p><strong><br>Tip:</strong> wash it <b><strong>cold</strong></b>, <em>dry it </em>flat, and iron it <strong>dam</strong><strong>p</strong>; <strong>never</strong> <strong>bleach</strong> it.</p>
        <p><span>Fold it in</span><b> loose roll</b><span><strong>s</strong> and store it <em>dry</em></span><span><em>ly</em>.</span></p>
        <p><strong>Our offer<br><br></strong><span><strong>Book:</strong> by May</span></p>
        ${para('The storage')}</article>`),
    );
    expect(md).toContain('\n## **Washing**\n');
    expect(md).toContain(
      '\n**Tip:** wash it **cold**, *dry it* flat, and iron it **damp**; **never** **bleach** it.',
    );
    expect(md).toContain('\nFold it in **loose rolls** and store it *dryly*.');
    expect(md).toContain('\n**Our offer**\n\n**Book:** by May');
  });

  it('keeps nested lists nested', () => {
    const md = markdown(
      page(`<article><h1>Packing</h1>${para('The trip')}
        <ul><li>Clothes<ul><li>Socks</li><li>Boots</li></ul></li><li>Food<ol><li>Bread</li><li>Cheese</li></ol></li></ul>
        ${para('The return')}</article>`),
    );
    expect(md).toContain('- Clothes\n  - Socks\n  - Boots\n- Food\n  1. Bread\n  2. Cheese');
  });

  it('makes links and images absolute, against <base> when there is one', () => {
    const body = `<article><h1>Gallery</h1>${para('The exhibition')}
      <p>See the <a href="../archive/2019.html">archive</a> and <a href="//cdn.example/x">mirror</a>.</p>
      <img src="img/one.jpg" alt="First painting"><img data-src="/lazy/two.jpg" src="data:image/gif;base64,R0lGOD" alt="Second painting">
      <img src="/assets/lazy_placeholder.gif" data-src="/lazy/three.jpg" alt="Third painting">
      <img src="img/four.jpg" data-src="false" alt="Fourth painting">
      ${para('The catalogue')}</article>`;
    const md = markdown(page(body));
    expect(md).toContain('[archive](https://news.example/archive/2019.html)');
    expect(md).toContain('[mirror](https://cdn.example/x)');
    expect(md).toContain('![First painting](https://news.example/section/img/one.jpg)');
    expect(md).toContain('![Second painting](https://news.example/lazy/two.jpg)');
    // A placeholder served from the site gives way to the source the lazy-loading script would set.
    expect(md).toContain('![Third painting](https://news.example/lazy/three.jpg)');
    expect(md).toContain('![Fourth painting](https://news.example/section/img/four.jpg)');
    const based = markdown(page(body, '<base href="https://static.example/v2/">'));
    expect(based).toContain('![First painting](https://static.example/v2/img/one.jpg)');
  });

  it('writes a video, an audio or an embedded player as a link to what it plays, named as a screen reader names it, on the whole page and as main content', () => {
    const body = `<article><h1>The lock</h1>${para('The morning shift')}
      <video controls aria-label="A tour (of) the lock"><source src="blob:https://news.example/1"><source src="media/tour (1).mp4">Your browser cannot play this video.</video>
      <audio controls src="/media/interview.mp3"></audio>
      <video controls><source src="/media/clip.webm"></video>
      <video autoplay muted loop src="/media/background.mp4"></video>
      <video controls src="blob:https://news.example/2"></video>
      <iframe src="https://player.example/embed/42" title="The lock (at night)" allowfullscreen></iframe>
      <iframe src="https://maps.example/embed?q=lock" allow="fullscreen"></iframe>
      <iframe src="https://tags.example/ns.html" title="Tag manager"></iframe>
      ${para('The night crossing')}</article>`;
    for (const whole of [false, true]) {
      const md = markdown(page(body), !whole);
      expect(md).toContain(
        '[Video: A tour (of) the lock](https://news.example/section/media/tour%20\\(1\\).mp4)',
      );
      expect(md).toContain('[Audio](https://news.example/media/interview.mp3)');
      expect(md).toContain('[Video](https://news.example/media/clip.webm)');
      expect(md).toContain('[Embedded: The lock (at night)](https://player.example/embed/42)');
      expect(md).toContain('[Embedded](https://maps.example/embed?q=lock)');
      expect(md).not.toContain('Tag manager');
      expect(md).not.toContain('background.mp4');
      expect(md).not.toContain('blob:');
      expect(md).not.toContain('cannot play');
    }
  });

  it("writes a heading's toggle button as the heading's words on the whole page, and no other button", () => {
    const html = `<html><body><h3><button aria-expanded="true">Opening hours</button></h3>${para('The hours')}<p><button>Book now</button></p></body></html>`;
    const out = convertHtml({ html, url: URL_, format: 'markdown', onlyMainContent: false });
    expect(out.content).toContain('### Opening hours');
    expect(out.content).not.toContain('Book now');
  });

  it("writes a no-script copy of the page on the whole page, and not a small noscript's plea", () => {
    const out = convertHtml({
      html: FORUM_NOSCRIPT_COPY,
      url: URL_,
      format: 'markdown',
      onlyMainContent: false,
    }).content;
    expect(out).toContain('# [Kiln temperature drops overnight]');
    for (const m of markers(FORUM_NOSCRIPT_COPY).keep) expect(out, m).toContain(m);
    expect(out).not.toContain('DROP-NOSCRIPT-PLEA');
    expect(out).not.toContain('start()');
  });

  it('writes an article once when a <noscript> repeats it, as main content and on the whole page', () => {
    const article = `<h1>Plumbing trends</h1>${para('The first trend')}${para('The second trend')}`;
    const html = `<html><body><nav><a href="/">Home</a></nav><article>${article}</article><noscript><div class="copy">${article}</div></noscript></body></html>`;
    for (const onlyMainContent of [true, false]) {
      const out = convertHtml({ html, url: URL_, format: 'markdown', onlyMainContent }).content;
      expect(out.split('The first trend'), `onlyMainContent ${onlyMainContent}`).toHaveLength(2);
      expect(out.split('The second trend'), `onlyMainContent ${onlyMainContent}`).toHaveLength(2);
    }
  });

  it('writes a no-script rendering once when the page holds it in two <noscript>s', () => {
    const copy = `<noscript><div class="crawler">${para('The only post')}${para('The only reply')}</div></noscript>`;
    const html = `<html><body><div id="app"></div>${copy}${copy}</body></html>`;
    for (const onlyMainContent of [true, false]) {
      const out = convertHtml({ html, url: URL_, format: 'markdown', onlyMainContent }).content;
      expect(out.split('The only post'), `onlyMainContent ${onlyMainContent}`).toHaveLength(2);
    }
  });

  it('reads pages that leave out <html>, <head> and <body>, as browsers do', () => {
    const bare = `<!doctype html><title>Bare page</title><meta name="description" content="No root element"><h1>Bare heading</h1>${para('The first point')}${para('The second point')}`;
    const out = convertHtml({ html: bare, url: URL_, format: 'markdown', onlyMainContent: false });
    expect(out.metadata.title).toBe('Bare page');
    expect(out.metadata.description).toBe('No root element');
    expect(out.content).not.toContain('Bare page');
    expect(out.content.indexOf('# Bare heading')).toBeGreaterThanOrEqual(0);
    expect(out.content.indexOf('# Bare heading')).toBeLessThan(
      out.content.indexOf('The first point'),
    );
    expect(out.content.indexOf('The first point')).toBeLessThan(
      out.content.indexOf('The second point'),
    );
    expect(markdown(`<h2>Fragment</h2>${para('A fragment')}`)).toContain(
      'A fragment is described here',
    );
  });

  it('keeps content that the markup places after </body>', () => {
    const html = `<html><head><title>x</title></head><body><article><h1>Late</h1>${para('The start')}</article></body><div>${para('The stray part')}</div></html>`;
    expect(markdown(html, false)).toContain('The stray part is described here');
  });

  it('keeps the intro and every card of a listing page, not one block of it', () => {
    const cards = Array.from(
      { length: 12 },
      (_, i) =>
        `<div class="card"><h3><a href="/p/${i}">Garden chair model ${i}</a></h3><p>Teak, seats one, ships in ${i + 2} days.</p><p>$${100 + i}</p></div>`,
    ).join('');
    const md = markdown(
      page(
        `<nav><a href="/">Shop</a></nav><main><h1>Garden chairs</h1><section class="intro">${para('The range')}</section><section class="grid">${cards}</section></main><footer>Shop footer text</footer>`,
      ),
    );
    expect(md).toContain('The range is described here');
    for (const i of [0, 5, 11])
      expect(md).toContain(`[Garden chair model ${i}](https://news.example/p/${i})`);
    expect(md).toContain('ships in 13 days');
    expect(md).not.toContain('Shop footer text');
  });
});

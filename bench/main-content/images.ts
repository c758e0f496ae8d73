/**
 * The pictures the main content's markdown carries: how many on each data set (WCXB by page type),
 * and on article-extraction how many of the images in Readability's pick of the article (the
 * same-run baseline of what an article's own pictures are) it keeps, and how many others it adds.
 * Images are matched by file name as the converter matches a page's declared picture
 * (`imageFileName`), so one picture at two sizes counts once. Word F1 does not see
 * images (the metrics drop them), so this is their only measure.
 *
 *   node bench/main-content/images.ts
 */

import { parseHtml } from '../../src/content/dom/parse.ts';
import { convertHtml } from '../../src/content/index.ts';
import { imageFileName } from '../../src/content/main/kept-media.ts';
import { readabilityArticle } from '../../src/content/main/main-content.ts';
import { loadArticleExtraction, loadWcxb, type Page } from './data.ts';

const fileName = (url: string) => imageFileName(url) ?? '';

/** The file names of the images in markdown (`![alt](src)`). */
function markdownImages(markdown: string): string[] {
  return [...markdown.matchAll(/!\[[^\n]*?\]\(([^)\s]+)/g)].map((m) => fileName(m[1]!));
}

function mainImages(page: Page): string[] {
  const { content } = convertHtml({
    html: page.html,
    url: page.url,
    format: 'markdown',
    onlyMainContent: true,
  });
  return markdownImages(content);
}

const article = loadArticleExtraction();
let ours = 0;
let readability = 0;
let kept = 0;
let others = 0;
for (const page of article) {
  const mine = new Set(mainImages(page));
  const doc = parseHtml(page.html);
  const picked = readabilityArticle(doc);
  const theirs = new Set(
    [...(picked?.querySelectorAll('img') ?? [])]
      .map((img) => fileName(img.getAttribute('src') ?? ''))
      .filter((name) => name.length > 3),
  );
  ours += mine.size;
  readability += theirs.size;
  kept += [...theirs].filter((n) => mine.has(n)).length;
  others += [...mine].filter((n) => !theirs.has(n)).length;
}
console.log(
  `article-extraction (${article.length} pages): ${ours} images in the main content; of Readability's ${readability}, ${kept} kept; ${others} others`,
);

const byType = new Map<string, number>();
let wcxb = 0;
for (const page of loadWcxb()) {
  const n = mainImages(page).length;
  byType.set(page.type, (byType.get(page.type) ?? 0) + n);
  wcxb += n;
}
console.log(`WCXB: ${wcxb} images; ${[...byType].map(([t, n]) => `${t} ${n}`).join(', ')}`);
console.log(
  `RESULT article_images=${ours} article_readability_images_kept=${kept}/${readability} article_other_images=${others} wcxb_images=${wcxb}`,
);

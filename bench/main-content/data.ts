import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface Page {
  id: string;
  url: string;
  html: string;
  truth: string;
  /** WCXB page type; "article" for the article-extraction set. */
  type: string;
  /** The data set, whose own metric scores the page. */
  set: DataSet;
}

export type DataSet = 'wcxb' | 'article-extraction';

const REPO = new URL('../../', import.meta.url).pathname;

/**
 * The data sets are not part of the repository (they are others' pages, under their own licences):
 * `WEBDATA_BENCH_DATA` names their folder, else a `shared/data` folder beside the checkout (or one
 * level up, for a worktree) is used.
 */
export const DATA_DIR =
  process.env.WEBDATA_BENCH_DATA ??
  [join(REPO, '../shared/data'), join(REPO, '../../shared/data')].find((d) => existsSync(d)) ??
  join(REPO, '../shared/data');

/** Where each data set comes from, for the message a bench prints when it is missing. */
const SOURCES: Record<string, string> = {
  'article-extraction':
    'scrapinghub/article-extraction-benchmark on GitHub (html/<id>.html.gz and ground-truth.json)',
  'wcxb-dev':
    'Murrough-Foley/web-content-extraction-benchmark on GitHub, its dev split (html/<id>.html.gz, ground-truth/<id>.json)',
};

/** The folder of one data set; exits with how to get it when it is not there. */
function dataSet(name: string): string {
  const dir = join(DATA_DIR, name);
  if (existsSync(dir)) return dir;
  console.error(
    `bench: the data set ${name} is not at ${dir}.\n` +
      `Get it from ${SOURCES[name]}, lay it out as ${name}/ in a folder, and point WEBDATA_BENCH_DATA at that folder.`,
  );
  process.exit(2);
}

function readHtml(path: string): string {
  return gunzipSync(readFileSync(path)).toString('utf8');
}

/** Every n-th page when a limit is given, so a quick run still spans the whole set. */
function sample<T>(items: T[], limit: number | undefined): T[] {
  if (!limit || limit >= items.length) return items;
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)]!);
}

export function loadArticleExtraction(limit?: number): Page[] {
  const dir = dataSet('article-extraction');
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { articleBody: string; url: string }
  >;
  const ids = Object.keys(truth).sort();
  return sample(ids, limit).map((id) => ({
    id,
    url: truth[id]!.url,
    html: readHtml(join(dir, 'html', `${id}.html.gz`)),
    truth: truth[id]!.articleBody,
    type: 'article',
    set: 'article-extraction' as const,
  }));
}

export function loadWcxb(limit?: number): Page[] {
  const dir = dataSet('wcxb-dev');
  const ids = readdirSync(join(dir, 'html'))
    .map((f) => f.replace(/\.html\.gz$/, ''))
    .sort();
  const pages = sample(ids, limit).map((id) => {
    // The ground truth carries the page type of every page; metadata.json lacks some.
    const gt = JSON.parse(readFileSync(join(dir, 'ground-truth', `${id}.json`), 'utf8')) as {
      url: string;
      ground_truth: { main_content?: string | null };
      _internal: { page_type: { primary: string } };
    };
    return {
      id,
      url: gt.url,
      html: readHtml(join(dir, 'html', `${id}.html.gz`)),
      truth: gt.ground_truth.main_content ?? '',
      type: gt._internal.page_type.primary,
      set: 'wcxb' as const,
    };
  });
  // 21 dev pages have no main content to score against (2 carry only with/without snippets,
  // 19 an empty main_content); a bag-of-words F1 against nothing says nothing, so they are left out.
  return pages.filter((p) => p.truth !== '');
}

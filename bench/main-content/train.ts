/**
 * Trains the block classifier on every WCXB dev page and every article-extraction page and writes
 * src/content/main/block-model.json. First prints the 5-fold held-out figures: each page's text as the
 * converter would return it (routed as selectMainContent routes) under a model and route policy
 * fitted without its fold, scored by its data set's own metric, beside main's routing (declared
 * articles to Readability, a menu or nothing to Readability) on the same folds. Both sets are cut
 * into folds by page order; `--wcxb-only` fits on WCXB alone and reads article-extraction as
 * unseen pages, as the model was trained before both sets were.
 * The folds group pages by site (`folds.ts`): no site has pages on both sides of a fold.
 * `--fold-by page` cuts them by page order instead, as the figures were first cut, to report the
 * figure both ways (pages of one site then sit in training and test folds at once, which flatters it).
 * Saves the route cases (bench/results/route-cases.json) so that
 *
 *   npm run train:main-content                   # classifier, page forests and route policy, about 36 min on 2 cores
 *   npm run train:main-content -- --route-only   # only the route policy, from the saved cases, seconds
 *   npm run train:main-content -- --limit 400 --trees 50   # a cheap held-out estimate; writes nothing
 *
 * `--limit N` samples every n-th page of each set and `--trees N` fits fewer trees: runs for
 * comparing one change with another, whose figures are below the full run's; they write neither
 * the model nor the route cases. `--beta B` fits the thresholds and page forests to page F-beta
 * instead of F1 (under 1 weighs precision more); it too only estimates. Figures stay F1.
 * The route-only run keeps the shipped classifier and fits the route to the last full run's cases.
 * Training is deterministic: two full runs write the same bytes. A change to what the blocks are
 * changes the fit: refit, read the hand-written converter tests again, and ship it with the change.
 */
import { parseArgs } from 'node:util';
import { type BlockModel, shippedModel } from '../../src/content/main/block-model.ts';
import { NEVER } from '../../src/content/main/route.ts';
import { loadArticleExtraction, loadWcxb } from './data.ts';
import { type FoldBy, foldsOf } from './folds.ts';
import { f1OfAverages, mean, type PrecisionRecall } from './metrics.ts';
import {
  ceilingScores,
  loadCases,
  type RouteCase,
  routeCase,
  type SavedCases,
  saveCases,
} from './route-cases.ts';
import { bestRoute, byType, grid, heldOutF1 } from './route-fit.ts';
import { crossValidate, FIT_OPTIONS, type FitOptions, labelPage, writeModel } from './train-lib.ts';

const { values: args } = parseArgs({
  options: {
    'route-only': { type: 'boolean' },
    'wcxb-only': { type: 'boolean' },
    'fold-by': { type: 'string', default: 'site' },
    limit: { type: 'string' },
    trees: { type: 'string' },
    beta: { type: 'string' },
  },
});
const foldBy = args['fold-by'] as FoldBy;
if (foldBy !== 'site' && foldBy !== 'page') throw new Error('--fold-by is site or page');
const limit = args.limit ? Number(args.limit) : undefined;
const beta = args.beta ? Number(args.beta) : FIT_OPTIONS.beta;
if (!(beta > 0)) throw new Error('--beta is a number above 0');
const fitOptions: FitOptions = {
  forest: args.trees ? { ...FIT_OPTIONS.forest, trees: Number(args.trees) } : FIT_OPTIONS.forest,
  beta,
};
/** A cheap run, one on other folds or one on another objective estimates; only the full run as shipped writes. */
const writes = !limit && !args.trees && !args.beta && foldBy === 'site';
const choose = (cases: RouteCase[]) => bestRoute(cases, grid());

async function fitAll(): Promise<{ saved: SavedCases; classifier: BlockModel; ceiling: string }> {
  const t0 = performance.now();
  const labelled = [...loadWcxb(limit), ...loadArticleExtraction(limit)].map(labelPage);
  const fold = foldsOf(
    labelled.map((p) => p.page),
    foldBy,
  );
  const trained = labelled.map((p) => p.page.set === 'wcxb' || !args['wcxb-only']);
  console.log(
    `labelled ${labelled.length} pages, ${labelled.reduce((a, p) => a + p.labels.length, 0)} blocks in ${((performance.now() - t0) / 1000).toFixed(0)} s; training on ${trained.filter(Boolean).length}`,
  );
  const ceilings = labelled.map(ceilingScores);
  const ceilingOf = (set: string) => ceilings.filter((_, i) => labelled[i]!.page.set === set);
  const ceiling = `faultless classifier (every block at least half content kept): wcxb word F1 ${mean(ceilingOf('wcxb').map((c) => c.f1)).toFixed(3)}, article-extraction shingle F1 ${f1OfAverages(ceilingOf('article-extraction').map((c) => c.shingles!)).toFixed(3)} (body ${f1OfAverages(ceilingOf('article-extraction').map((c) => c.body!)).toFixed(3)})`;
  const { cases, model: classifier } = await crossValidate(labelled, fold, trained, fitOptions);
  console.log(`fitted in ${((performance.now() - t0) / 60_000).toFixed(0)} min`);
  const saved = { folds: cases, all: labelled.map((p) => routeCase(classifier, p)), trained, fold };
  if (writes) saveCases(saved);
  return { saved, classifier, ceiling };
}

const { saved, classifier, ceiling } = args['route-only']
  ? { saved: loadCases(), classifier: shippedModel(), ceiling: undefined }
  : await fitAll();
const main = { shortWords: 0, ratio: 1, declaredWords: 1, declaredAgreement: NEVER, menuRatio: 0 };
const baseline = heldOutF1(saved, () => main, true);
const held = heldOutF1(saved, choose);
const wcxb = saved.all.flatMap((c, i) => (c.set === 'wcxb' ? [i] : []));
const wcxbTypes = wcxb.map((i) => saved.all[i]!.type);
const baseByType = byType(
  wcxbTypes,
  wcxb.map((i) => baseline.f1[i]!),
);
/** Page i's held-out reading, the one its route policy picked. */
const heldCase = (i: number) => saved.folds[saved.fold[i]!]![i]!;
const heldWords = (i: number): PrecisionRecall => {
  const words = heldCase(i).words!;
  return held.readability[i] ? words.readability : words.classifier;
};
const precisionByType = byType(
  wcxbTypes,
  wcxb.map((i) => heldWords(i).precision),
);
const recallByType = byType(
  wcxbTypes,
  wcxb.map((i) => heldWords(i).recall),
);
console.log(`folds by ${foldBy}`);
for (const [i, [type, f1, n]] of byType(
  wcxbTypes,
  wcxb.map((i) => held.f1[i]!),
).entries()) {
  console.log(
    `held-out wcxb ${type.padEnd(14)} n=${String(n).padStart(4)}  word F1 ${f1.toFixed(3)}  P ${precisionByType[i]![1].toFixed(3)} R ${recallByType[i]![1].toFixed(3)}  (main's routing ${baseByType[i]![1].toFixed(3)})`,
  );
}
/** article-extraction's own figure: F1 of the averaged shingle precision and recall of the readings routed to. */
const articles = saved.all.flatMap((c, i) => (c.set === 'article-extraction' ? [i] : []));
const articleF1 = (readability: (i: number) => boolean) =>
  f1OfAverages(
    articles.map((i) => {
      const c = heldCase(i);
      return readability(i) ? c.shingles!.readability : c.shingles!.classifier;
    }),
  );
if (articles.length)
  console.log(
    `held-out article-extraction n=${articles.length}  shingle F1 ${articleF1((i) => held.readability[i]!).toFixed(3)}  (main's routing ${articleF1((i) => baseline.readability[i]!).toFixed(3)}, Readability alone ${articleF1(() => true).toFixed(3)}, classifier alone ${articleF1(() => false).toFixed(3)}; ${saved.trained[articles[0]!] ? 'trained on the other folds' : 'never trained on'})`,
  );
const bodies = articles.flatMap((i) => heldCase(i).shingles!.classifierBody ?? []);
if (articles.length && bodies.length === articles.length)
  console.log(
    `held-out article-extraction body (classifier alone, without the title heading: the truth and the published figures leave the headline out) shingle F1 ${f1OfAverages(bodies).toFixed(3)} P ${mean(bodies.map((b) => b.precision)).toFixed(3)} R ${mean(bodies.map((b) => b.recall)).toFixed(3)}`,
  );
console.log(
  `held-out classifier alone, wcxb: ${mean(wcxb.map((i) => heldCase(i).classifier)).toFixed(3)}`,
);
if (ceiling) console.log(ceiling);
console.log(`fold policies: ${held.policies.map((p) => JSON.stringify(p)).join(' ')}`);
const model = { ...classifier, route: choose(saved.all.filter((_, i) => saved.trained[i])) };
if (writes || args['route-only'])
  console.log(
    `wrote ${writeModel(model)}: ${model.stage1.weights.length} features, then ${model.stage2.trees.length} trees, threshold ${model.threshold}, route ${JSON.stringify(model.route)}`,
  );

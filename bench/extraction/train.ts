/**
 * Trains the block classifier on every WCXB dev page and writes src/content/block-model.json.
 * First prints the 5-fold held-out figure: each page's text as the converter would return it
 * (routed as selectMainContent routes) under a model and route policy fitted without its fold,
 * scored by the WCXB metric (bench/extraction/run.ts --folds prints the same), beside main's
 * routing (declared articles to Readability, a menu or nothing to Readability) on the same folds.
 * Saves the route cases (bench/results/route-cases.json) so that
 *
 *   npm run train:extraction                   # classifier and route policy, about 15 min
 *   npm run train:extraction -- --route-only   # only the route policy, from the saved cases, seconds
 *   ... --fit-declared   # also fit when a declared article stays with the classifier (route-fit.ts)
 *
 * The route-only run keeps the shipped classifier, which the full run fits again (to within 3e-5 a weight).
 */
import { parseArgs } from 'node:util';
import { type BlockModel, shippedModel } from '../../src/content/block-model.ts';
import { loadWcxb } from './data.ts';
import { loadCases, type RouteCase, routeCase, type SavedCases, saveCases } from './route-cases.ts';
import { bestRoute, byType, grid, heldOutF1, NEVER } from './route-fit.ts';
import { crossValidate, fitClassifier, labelPage, writeModel } from './train-lib.ts';

const { values: args } = parseArgs({
  options: { 'route-only': { type: 'boolean' }, 'fit-declared': { type: 'boolean' } },
});
const choose = (cases: RouteCase[]) => bestRoute(cases, grid(args['fit-declared']));

function fitAll(): { saved: SavedCases; classifier: BlockModel } {
  const t0 = performance.now();
  const labelled = loadWcxb().map(labelPage);
  console.log(
    `labelled ${labelled.length} pages, ${labelled.reduce((a, p) => a + p.labels.length, 0)} blocks in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  const { cases } = crossValidate(labelled);
  const classifier = fitClassifier(labelled);
  const saved = { folds: cases, all: labelled.map((p) => routeCase(classifier, p)) };
  saveCases(saved);
  return { saved, classifier };
}

const { saved, classifier } = args['route-only']
  ? { saved: loadCases(), classifier: shippedModel() }
  : fitAll();
const types = saved.all.map((c) => c.type);
const main = { shortWords: 0, ratio: 1, declaredWords: 1, declaredAgreement: NEVER };
const baseline = heldOutF1(saved, () => main, true).f1;
const held = heldOutF1(saved, choose);
const baseByType = byType(types, baseline);
for (const [i, [type, f1, n]] of byType(types, held.f1).entries()) {
  console.log(
    `held-out ${type.padEnd(14)} n=${String(n).padStart(4)}  word F1 ${f1.toFixed(3)}  (main's routing ${baseByType[i]![1].toFixed(3)})`,
  );
}
console.log(`fold policies: ${held.policies.map((p) => JSON.stringify(p)).join(' ')}`);
const model = { ...classifier, route: choose(saved.all) };
console.log(
  `wrote ${writeModel(model)}: ${model.stage1.weights.length} features, then ${model.stage2.trees.length} trees, threshold ${model.threshold}, route ${JSON.stringify(model.route)}`,
);

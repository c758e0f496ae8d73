/**
 * Trains the block classifier on every WCXB dev page and writes src/content/block-model.json.
 * First prints the 5-fold held-out figure: each page's text as the converter would return it
 * (routed as selectMainContent routes) under a model and route policy fitted without its fold,
 * scored by the WCXB metric (bench/extraction/run.ts --folds prints the same).
 *
 *   npm run train:extraction
 */
import { loadWcxb } from './data.ts';
import { byType, crossValidate, fit, labelPage, writeModel } from './train-lib.ts';

const pages = loadWcxb();
const t0 = performance.now();
const labelled = pages.map(labelPage);
console.log(`labelled ${labelled.length} pages, ${labelled.reduce((a, p) => a + p.labels.length, 0)} blocks in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
const held = crossValidate(labelled);
for (const [type, f1, n] of byType(labelled, held.f1)) console.log(`held-out ${type.padEnd(14)} n=${String(n).padStart(4)}  word F1 ${f1.toFixed(3)}`);
const model = fit(labelled);
console.log(`wrote ${writeModel(model)}: ${model.stage1.weights.length} + ${model.stage2.weights.length} features, threshold ${model.threshold}`);

/**
 * Fits the route policy (src/content/route.ts) on route cases: the grid point with the best mean
 * page F1 over the training pages. The grid is capped where Readability would run on too many
 * pages for the speed goal (<= 1.5x Readability): short picks up to 200 words.
 */
import { NEVER, type RoutePolicy, readabilityWins } from '../../src/content/main/route.ts';
import { FOLDS } from './folds.ts';
import { mean } from './metrics.ts';
import type { RouteCase, SavedCases } from './route-cases.ts';

const SHORT_WORDS = [0, 50, 100, 150, 200];
const RATIOS = [1, 1.5, 2, 3, 4];
const DECLARED_WORDS = [1, 200, 400, 800, 1600, NEVER];
const DECLARED_AGREEMENT = [0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, NEVER];
const MENU_RATIOS = [0, 0.05, 0.1, 0.2, 0.5, 1];

/**
 * The policies tried, the declared-article terms among them. Those terms were held at "always
 * Readability" while only WCXB was fitted on: WCXB kept declared pages with the classifier, which
 * article-extraction, then never trained on, did not bear out (docs/main-content.md). With both
 * sets in the folds the fit weighs the two together.
 */
export function grid(): RoutePolicy[] {
  return SHORT_WORDS.flatMap((shortWords) =>
    RATIOS.flatMap((ratio) =>
      DECLARED_WORDS.flatMap((declaredWords) =>
        DECLARED_AGREEMENT.flatMap((declaredAgreement) =>
          MENU_RATIOS.map((menuRatio) => ({
            shortWords,
            ratio,
            declaredWords,
            declaredAgreement,
            menuRatio,
          })),
        ),
      ),
    ),
  );
}

/** The page's F1 under `policy`; `plain` scores the readings without the product description. */
export function scoreCase(policy: RoutePolicy, c: RouteCase, plain = false): number {
  const rd = readabilityWins(policy, c);
  if (plain) return rd ? c.readabilityPlain : c.classifierPlain;
  return rd ? c.readability : c.classifier;
}

export function bestRoute(cases: RouteCase[], policies: RoutePolicy[] = grid()): RoutePolicy {
  let best = policies[0]!;
  let bestSum = -1;
  for (const policy of policies) {
    const sum = cases.reduce((a, c) => a + scoreCase(policy, c), 0);
    if (sum > bestSum + 1e-9) {
      bestSum = sum;
      best = policy;
    }
  }
  return best;
}

/**
 * Per page, the held-out score: the page's fold model read it, routed by the policy `choose` picks
 * from the other folds' training cases (under the same model), or by a fixed policy; and which
 * reading that was.
 */
export function heldOutF1(
  saved: Pick<SavedCases, 'folds' | 'trained' | 'fold'>,
  choose: (training: RouteCase[]) => RoutePolicy,
  plain = false,
): { f1: number[]; readability: boolean[]; policies: RoutePolicy[] } {
  const f1 = new Array<number>(saved.trained.length).fill(0);
  const readability = new Array<boolean>(saved.trained.length).fill(false);
  const policies: RoutePolicy[] = [];
  for (let k = 0; k < FOLDS; k++) {
    const cases = saved.folds[k]!;
    const policy = choose(cases.filter((_, i) => saved.fold[i] !== k && saved.trained[i]));
    policies.push(policy);
    cases.forEach((c, i) => {
      if (saved.fold[i] !== k) return;
      f1[i] = scoreCase(policy, c, plain);
      readability[i] = readabilityWins(policy, c);
    });
  }
  return { f1, readability, policies };
}

/** Mean F1 overall and per page type. */
export function byType(types: string[], f1: number[]): Array<[string, number, number]> {
  const names = [...new Set(types)].sort();
  return [
    ['all', mean(f1), f1.length],
    ...names.map((t): [string, number, number] => {
      const idx = types.flatMap((x, i) => (x === t ? [i] : []));
      return [t, mean(idx.map((i) => f1[i]!)), idx.length];
    }),
  ];
}

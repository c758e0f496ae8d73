import { describe, expect, it } from 'vitest';
import { f1Of, fBetaOf, fBetaOfCounts } from '../../bench/main-content/metrics.ts';

// The trainer's objective (`train:main-content -- --beta`): F1 at beta 1, precision weighed more below it.
describe('fBetaOf', () => {
  it('is F1 at beta 1 and weighs recall by beta squared', () => {
    const s = { precision: 0.6, recall: 0.9 };
    expect(fBetaOf(s, 1)).toBeCloseTo(0.72, 12);
    expect(f1Of(s)).toBe(fBetaOf(s, 1));
    // (1 + 0.64) * 0.6 * 0.9 / (0.64 * 0.6 + 0.9)
    expect(fBetaOf(s, 0.8)).toBeCloseTo(0.8856 / 1.284, 12);
  });

  it('ranks a precise reading above a recalling one only when beta is under 1', () => {
    const precise = { precision: 0.9, recall: 0.7 };
    const recalling = { precision: 0.7, recall: 0.9 };
    expect(fBetaOf(precise, 1)).toBeCloseTo(fBetaOf(recalling, 1), 12);
    expect(fBetaOf(precise, 0.8)).toBeGreaterThan(fBetaOf(recalling, 0.8));
    expect(fBetaOf({ precision: 0, recall: 0 }, 0.8)).toBe(0);
  });

  it('reads counts as it reads their precision and recall', () => {
    // 6 right, 4 wrongly kept, 1 missed: precision 0.6, recall 6/7.
    expect(fBetaOfCounts(6, 4, 1, 0.8)).toBeCloseTo(
      fBetaOf({ precision: 0.6, recall: 6 / 7 }, 0.8),
      12,
    );
    expect(fBetaOfCounts(0, 3, 2, 1)).toBe(0);
  });
});

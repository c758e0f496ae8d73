import { requireHttpUrl } from './common.ts';

/** Navigate steps must name absolute http(s) URLs; a mistake is a 400 naming the step. */
export function checkSteps(
  steps: ReadonlyArray<{ type: string; url?: string }> | undefined,
  field: string,
): void {
  for (const [i, s] of (steps ?? []).entries())
    if (s.type === 'navigate') requireHttpUrl(s.url ?? '', `${field}[${i}].url`);
}

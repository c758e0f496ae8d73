import { describe, expect, it } from 'vitest';
import { extractiveSummary } from '../../src/content/index.ts';

const PAGE = [
  '# Field notes',
  '',
  'The harbour seals haul out on the north beach at low water. They stay until the tide turns.',
  '',
  'Gulls nest on the cliff ledges from April. Their chicks fledge in July.',
  '',
  '- Seals are counted weekly by volunteers',
  '- Gull nests are counted once a season',
  '',
  '| Species | Count |',
  '|---|---|',
  '| Seal | 40 |',
  '',
  'Boats must keep fifty metres from hauled-out seals. The rule is enforced by the harbour master.',
].join('\n');

describe('extractiveSummary', () => {
  it('chooses the sentences that hold the query terms, in page order, joining paragraphs with a blank line', () => {
    const out = extractiveSummary(PAGE, 'Where do the seals haul out?', 1000);
    const passages = out.split(/\n\n/);
    expect(passages.every((p) => /seal|haul/i.test(p))).toBe(true);
    expect(out).toContain('The harbour seals haul out on the north beach at low water.');
    expect(out).toContain('Boats must keep fifty metres from hauled-out seals.');
    expect(out).not.toMatch(/Gull/);
    // Page order, not score order.
    expect(out.indexOf('north beach')).toBeLessThan(out.indexOf('fifty metres'));
    // Tables are not passages.
    expect(out).not.toContain('|');
  });

  it('stays within the bound, keeping the best sentences', () => {
    for (const bound of [60, 120, 200]) {
      const out = extractiveSummary(PAGE, 'seals haul out north beach', bound);
      expect(out.length).toBeLessThanOrEqual(bound);
      expect(out.length).toBeGreaterThan(0);
    }
    expect(extractiveSummary(PAGE, 'seals haul out north beach', 80)).toBe(
      'The harbour seals haul out on the north beach at low water.',
    );
  });

  it('cuts a single sentence longer than the bound at a word', () => {
    const out = extractiveSummary(
      'One very long sentence about seals that goes on and on without ending soon.',
      'seals',
      30,
    );
    expect(out.length).toBeLessThanOrEqual(30);
    expect(out.endsWith('…')).toBe(true);
  });

  it("gives the page's opening when nothing matches", () => {
    expect(extractiveSummary(PAGE, 'quantum chromodynamics', 100)).toBe(
      'The harbour seals haul out on the north beach at low water. They stay until the tide turns.',
    );
  });
});

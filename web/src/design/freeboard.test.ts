import { describe, expect, it } from 'vitest';
import { effectiveMargin, lowFreeboard, marginOf, marginSetting, NO_MARGIN } from './freeboard';
import type { Results } from './types';

const run = (freeboard: number, freeboard_percent: number, extra: Partial<Results> = {}): Results =>
  ({ calculated: true, overflowed: false, freeboard, freeboard_percent, ...extra }) as Results;

const storm = (minimum_free_board_m: number, flooded: boolean) => ({ minimum_free_board_m, flooded }) as Results['controlled'];

describe('the freeboard margin', () => {
  // The same cases as domain/project/freeboard_test.go: the client flags what the documents flag.
  it.each([
    ['nearly full (97.3 %, 4 mm of a 150 mm channel)', run(4, 2.7), NO_MARGIN, true],
    ['1 mm left', run(1, 0.3), NO_MARGIN, true],
    ['ample', run(60, 40), NO_MARGIN, false],
    ['exactly 20 mm and 13.3 %', run(20, 13.3), NO_MARGIN, false],
    ['deep channel: 25 mm is under 10 %', run(25, 8.3), NO_MARGIN, true],
    ["the project's own 50 mm", run(45, 30), { minMM: 50, minPercent: 0 }, true],
    ['percentage test off', run(25, 8.3), { minMM: null, minPercent: 0 }, false],
    ['flooded: its own warning instead', run(-10, -5, { overflowed: true }), NO_MARGIN, false],
    ['a gully has no freeboard', run(0, 0, { point: {} as Results['point'] }), NO_MARGIN, false],
    ['not calculated', run(1, 1, { calculated: false }), NO_MARGIN, false],
    // A controlled run: the critical storm ponds behind the orifice; 12 mm left of a 300 mm deep channel governs.
    ['controlled: the critical storm leaves 12 mm', run(150, 50, { invert_depth_mm: 300, controlled: storm(0.012, false) }), NO_MARGIN, true],
    ['controlled: the storm leaves more than the margin', run(150, 50, { invert_depth_mm: 300, controlled: storm(0.08, false) }), NO_MARGIN, false],
    ['controlled: the storm floods', run(150, 50, { invert_depth_mm: 300, controlled: storm(0.05, true) }), NO_MARGIN, true],
  ])('%s', (_name, results, margin, low) => {
    expect(lowFreeboard(results, margin)).toBe(low);
  });

  it('keeps the documented defaults where the project sets none', () => {
    expect(effectiveMargin(NO_MARGIN)).toEqual({ minMM: 20, minPercent: 10 });
    expect(effectiveMargin({ minMM: 0, minPercent: null })).toEqual({ minMM: 0, minPercent: 10 });
  });

  it('travels as the server fields and back', () => {
    const margin = { minMM: 35, minPercent: null };
    expect(marginSetting(margin)).toEqual({ freeboard_min_mm: 35, freeboard_min_percent: null });
    expect(marginOf(marginSetting(margin))).toEqual(margin);
    expect(marginOf({})).toEqual(NO_MARGIN);
  });
});

import { describe, expect, it } from 'vitest';
import {
  areaOf,
  canDivide,
  canMerge,
  catchmentOf,
  coversRun,
  designFlowLps,
  divideArea,
  generateAreas,
  joinedNeighbour,
  mergeAreas,
  setAreaSurface,
  setCornerWidth,
  splitLengths,
  splitRange,
  totalArea,
  type Catchment,
  type CatchmentArea,
} from './areas';
import { applyEdit } from '../design/runRules';
import type { RunInputs } from '../design/types';

const area = (xOrigin: number, length: number, start: number, end: number, value = 1): CatchmentArea => ({
  xOrigin,
  length_m: length,
  start_width_m: start,
  end_width_m: end,
  permeability: value === 1 ? 'concretePavement' : 'custom',
  permeability_value: value,
});

describe('area generation', () => {
  it.each([
    // length, area: each side one area as deep as area / length / 2
    [20, 200, 5],
    [20, 144, 3.6],
    [30, 100, 100 / 60],
    [0.1, 0.5, 2.5],
  ])('a %s m run of %s m² gets one area each side, %s m deep', (length, total, depth) => {
    const c = generateAreas(length, total, 'asphalt', 0.9)!;
    for (const side of [c.left, c.right]) {
      expect(side).toHaveLength(1);
      expect(side[0]).toMatchObject({ xOrigin: 0, length_m: length, permeability: 'asphalt', permeability_value: 0.9 });
      expect(side[0]!.start_width_m).toBeCloseTo(depth, 12);
      expect(side[0]!.end_width_m).toBeCloseTo(depth, 12);
    }
    // Both sides together hold exactly the run's area.
    expect(totalArea(c)).toBeCloseTo(total, 9);
    expect(coversRun(c, length)).toBe(true);
  });

  it.each([
    [0, 100],
    [20, 0],
    [null, 100],
    [20, null],
    [-5, 100],
  ])('needs a length and an area above 0 (%s m, %s m²)', (length, total) => {
    expect(generateAreas(length, total, 'concretePavement', 1)).toBeNull();
  });

  it('a custom surface keeps its value, a named one takes the list value', () => {
    expect(generateAreas(10, 10, 'custom', 0.35)!.left[0]!.permeability_value).toBe(0.35);
    expect(generateAreas(10, 10, 'softLandscape', 0.35)!.left[0]!.permeability_value).toBe(0.3);
  });
});

describe('the depth, area and length relation (spec section 4)', () => {
  const base: RunInputs = { channel_length_m: 20, drainage_area_m2: 200, catchment_depth_m: 5 };

  it.each([
    // field, value, expected depth, expected area
    ['catchment_depth_m', 2.5, 2.5, 100],
    ['drainage_area_m2', 300, 7.5, 300],
    ['channel_length_m', 40, 2.5, 200],
  ] as const)('editing %s to %s keeps depth = area / length / 2', (field, value, depth, total) => {
    const { changes } = applyEdit(base, field, value);
    const run = { ...base, ...changes };
    expect(run.catchment_depth_m).toBeCloseTo(depth, 3);
    expect(run.drainage_area_m2).toBeCloseTo(total, 2);
    expect(run.drainage_area_m2!).toBeCloseTo(2 * run.catchment_depth_m! * run.channel_length_m!, 2);
  });

  it.each(['catchment_depth_m', 'drainage_area_m2', 'channel_length_m'] as const)('regenerates an irregular catchment when %s changes', (field) => {
    const divided = divideArea(generateAreas(20, 200, 'concretePavement', 1)!, { side: 'left', index: 0 }, 8)!;
    const irregular: RunInputs = { ...base, catchmentShape: 'irregular', leftAreas: divided.left, rightAreas: divided.right };
    const value = field === 'channel_length_m' ? 25 : field === 'drainage_area_m2' ? 150 : 4;
    const { changes } = applyEdit(irregular, field, value);
    const run = { ...irregular, ...changes };
    const c = catchmentOf(run)!;
    expect(c.left).toHaveLength(1);
    expect(coversRun(c, run.channel_length_m!)).toBe(true);
    expect(totalArea(c)).toBeCloseTo(run.drainage_area_m2!, 6);
  });

  it('leaves a uniform run’s areas alone', () => {
    const { changes } = applyEdit({ ...base, catchmentShape: 'uniform' }, 'channel_length_m', 25);
    expect(changes).not.toHaveProperty('leftAreas');
  });

  it('switching to irregular makes areas from the length and area, and keeps areas that still cover the run', () => {
    const fresh = applyEdit({ ...base, permeabilitySurface: 'gravel', permeability: 0.6 }, 'catchmentShape', 'irregular').changes;
    expect(fresh.leftAreas).toEqual([area(0, 20, 5, 5, 0.6)].map((a) => ({ ...a, permeability: 'gravel' })));
    const kept = divideArea(catchmentOf(fresh)!, { side: 'right', index: 0 }, 5)!;
    const again = applyEdit({ ...base, leftAreas: kept.left, rightAreas: kept.right, catchmentShape: 'uniform' }, 'catchmentShape', 'irregular').changes;
    expect(again.rightAreas).toHaveLength(2);
    // The area field follows the areas.
    expect(again.drainage_area_m2).toBeCloseTo(totalArea(kept), 2);
  });

  it('an edit of the areas sets the area and the depth from their sum', () => {
    const c = setCornerWidth(generateAreas(20, 200, 'concretePavement', 1)!, { side: 'left', index: 0 }, 'end', 7, 100);
    const { changes } = applyEdit({ ...base, catchmentShape: 'irregular' }, 'catchmentAreas', c);
    expect(changes.drainage_area_m2).toBe(220);
    expect(changes.catchment_depth_m).toBe(5.5);
  });
});

describe('dividing', () => {
  const c: Catchment = { left: [area(0, 20, 4, 8)], right: [area(0, 20, 5, 5)] };

  it('cuts the area in two pieces that sum to its length and its surface', () => {
    const out = divideArea(c, { side: 'left', index: 0 }, 8)!;
    expect(out.left).toEqual([area(0, 8, 4, 5.6), area(8, 12, 5.6, 8)]);
    expect(areaOf(out.left[0]!) + areaOf(out.left[1]!)).toBeCloseTo(areaOf(c.left[0]!), 9);
    expect(out.right).toBe(c.right);
  });

  it('keeps the parts summing to the total for every split, in steps of 0.1 m', () => {
    for (const total of [0.2, 0.3, 1, 7.3, 19.9, 20, 123.4]) {
      const range = splitRange({ length_m: total })!;
      for (let typed = -1; typed <= total + 1; typed += 0.073) {
        for (const which of ['left', 'right'] as const) {
          const { left, right } = splitLengths({ length_m: total }, typed, which)!;
          expect(left + right).toBeCloseTo(total, 9);
          expect(left).toBeGreaterThanOrEqual(range.min - 1e-9);
          expect(right).toBeGreaterThanOrEqual(range.min - 1e-9);
          // The typed length is to the 0.1 m step.
          const own = which === 'left' ? left : right;
          expect(Math.abs(own * 10 - Math.round(own * 10))).toBeLessThan(1e-6);
        }
      }
    }
  });

  it('needs a piece of at least 0.1 m either side', () => {
    expect(canDivide({ length_m: 0.1 })).toBe(false);
    expect(canDivide({ length_m: 0.15 })).toBe(false);
    expect(canDivide({ length_m: 0.2 })).toBe(true);
    expect(splitLengths({ length_m: 10 }, 0, 'left')).toEqual({ left: 0.1, right: 9.9 });
    expect(splitLengths({ length_m: 10 }, 12, 'right')).toEqual({ left: 0.1, right: 9.9 });
    expect(divideArea({ left: [area(0, 0.1, 1, 1)], right: [] }, { side: 'left', index: 0 }, 0.05)).toBeNull();
  });

  it('places the pieces of a later area after the ones before', () => {
    const two = divideArea(c, { side: 'left', index: 0 }, 8)!;
    const three = divideArea(two, { side: 'left', index: 1 }, 2.5)!;
    expect(three.left.map((a) => [a.xOrigin, a.length_m])).toEqual([
      [0, 8],
      [8, 2.5],
      [10.5, 9.5],
    ]);
    expect(coversRun(three, 20)).toBe(true);
  });
});

describe('merging', () => {
  const c: Catchment = { left: [area(0, 8, 4, 5), area(8, 5, 5, 6, 0.5), area(13, 7, 6, 2)], right: [area(0, 20, 5, 5)] };

  it('merges neighbours into one area from the first start to the second end', () => {
    const out = mergeAreas(c, { side: 'left', index: 1 }, { side: 'left', index: 2 })!;
    expect(out.left).toEqual([c.left[0], { ...area(8, 12, 5, 2, 0.5) }]);
    expect(coversRun(out, 20)).toBe(true);
  });

  it('keeps the surface of the area merged from', () => {
    const out = mergeAreas(c, { side: 'left', index: 1 }, { side: 'left', index: 0 })!;
    expect(out.left[0]).toMatchObject({ xOrigin: 0, length_m: 13, start_width_m: 4, end_width_m: 6, permeability_value: 0.5 });
  });

  it.each([
    ['not neighbours', { side: 'left', index: 0 }, { side: 'left', index: 2 }],
    ['across the channel', { side: 'left', index: 0 }, { side: 'right', index: 0 }],
    ['itself', { side: 'left', index: 1 }, { side: 'left', index: 1 }],
    ['beyond the last', { side: 'right', index: 0 }, { side: 'right', index: 1 }],
  ] as const)('refuses areas that are %s', (_, a, b) => {
    expect(canMerge(c, a, b)).toBe(false);
    expect(mergeAreas(c, a, b)).toBeNull();
  });

  it('refuses neighbours with a gap between them', () => {
    const gap: Catchment = { left: [area(0, 5, 1, 1), area(6, 4, 1, 1)], right: [] };
    expect(canMerge(gap, { side: 'left', index: 0 }, { side: 'left', index: 1 })).toBe(false);
  });

  it('undoes a division', () => {
    const ref = { side: 'right', index: 0 } as const;
    const divided = divideArea(c, ref, 7.3)!;
    const merged = mergeAreas(divided, ref, { side: 'right', index: 1 })!;
    expect(merged.right[0]!.length_m).toBeCloseTo(20, 9);
    expect(totalArea(merged)).toBeCloseTo(totalArea(c), 9);
  });
});

describe('moving corners', () => {
  const c: Catchment = { left: [area(0, 8, 4, 5), area(8, 12, 5, 6)], right: [area(0, 20, 5, 5)] };

  it('moves a shared corner with the neighbour, to 0.1 m', () => {
    expect(joinedNeighbour(c, { side: 'left', index: 0 }, 'end')).toEqual({ side: 'left', index: 1 });
    const out = setCornerWidth(c, { side: 'left', index: 0 }, 'end', 7.26, 100);
    expect(out.left[0]!.end_width_m).toBe(7.3);
    expect(out.left[1]!.start_width_m).toBe(7.3);
  });

  it('moves it alone when asked (shift)', () => {
    const out = setCornerWidth(c, { side: 'left', index: 1 }, 'start', 2, 100, true);
    expect(out.left[1]!.start_width_m).toBe(2);
    expect(out.left[0]!.end_width_m).toBe(5);
  });

  it('keeps widths between 0 and the canvas edge', () => {
    expect(setCornerWidth(c, { side: 'right', index: 0 }, 'start', -3, 10).right[0]!.start_width_m).toBe(0);
    expect(setCornerWidth(c, { side: 'right', index: 0 }, 'start', 30, 9.96).right[0]!.start_width_m).toBe(9.9);
  });

  it('gives an area a surface or a custom value within 0 and 1', () => {
    expect(setAreaSurface(c, { side: 'right', index: 0 }, 'gravel').right[0]).toMatchObject({ permeability: 'gravel', permeability_value: 0.6 });
    expect(setAreaSurface(c, { side: 'right', index: 0 }, 'custom', 1.4).right[0]!.permeability_value).toBe(1);
    expect(setAreaSurface(c, { side: 'right', index: 0 }, 'custom', 0.45).right[0]!.permeability_value).toBe(0.45);
  });
});

describe('the design flow', () => {
  it('is the sum of area × permeability × intensity', () => {
    // 8 m × 5 m asphalt (0.9), 12 m from 5 to 7 m concrete (1), 20 m × 5 m at 0.5: 36 + 72 + 50 = 158 m² of runoff.
    const c: Catchment = {
      left: [{ ...area(0, 8, 5, 5), permeability: 'asphalt', permeability_value: 0.9 }, area(8, 12, 5, 7)],
      right: [area(0, 20, 5, 5, 0.5)],
    };
    // 158 m² × 50 mm/h = 7900 l/h = 2.1944 l/s (the server answers the same for this catchment).
    expect(designFlowLps(c, 50)).toBeCloseTo(158 * 50 / 3600, 12);
    expect(designFlowLps(c, 50)).toBeCloseTo(2.19444, 5);
  });
});

describe('reading stored areas', () => {
  it('places areas without a start one after the other, and reads a bare number as a custom permeability', () => {
    const c = catchmentOf({
      leftAreas: [
        { length_m: 5, start_width_m: 1, end_width_m: 1, permeability: 0.4 },
        { length_m: 3, start_width_m: 1, end_width_m: 1, permeability: 'gravel', permeability_value: 0.6 },
      ],
      rightAreas: [],
    })!;
    expect(c.left.map((a) => a.xOrigin)).toEqual([0, 5]);
    expect(c.left[0]).toMatchObject({ permeability: 'custom', permeability_value: 0.4 });
    expect(catchmentOf({})).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { SegmentResult } from '../design/types';
import { drawProfile, markers, markerSpacing, profileSize } from './profileGeometry';

const segment = (depths: number[], top = -0.02, invert = -0.15): SegmentResult => ({
  channelDescription: 'P100',
  length_mm: (depths.length - 1) * 1000,
  stepRaise: 0,
  floorChange: 0,
  slices: depths.map((depth_mm, i) => ({ distance_m: i, flow_l_s: i, depth_mm, invert_level_m: invert, top_level_m: top })),
});

describe('profile drawing', () => {
  it('is 1000 × 100 on wide windows and 600 × 70 under 1900 px', () => {
    expect(profileSize(1900)).toEqual({ width: 1000, height: 100 });
    expect(profileSize(1899)).toEqual({ width: 600, height: 70 });
  });

  it('spaces distance markers by the run length', () => {
    expect(markerSpacing(19.9)).toBe(2);
    expect(markerSpacing(20)).toBe(5);
    expect(markerSpacing(49)).toBe(5);
    expect(markerSpacing(50)).toBe(10);
    expect(markerSpacing(199)).toBe(10);
    expect(markerSpacing(200)).toBe(20);
  });

  it('measures from the head, or from the discharge end for zero_at_discharge users', () => {
    expect(markers(10, 100, false)).toEqual([
      { x: 0, label: 0 }, { x: 20, label: 2 }, { x: 40, label: 4 }, { x: 60, label: 6 }, { x: 80, label: 8 }, { x: 100, label: 10 },
    ]);
    const fromDischarge = markers(5, 100, true);
    expect(fromDischarge.map((m) => m.label)).toEqual([4, 2, 0]);
    expect(fromDischarge.map((m) => m.x)).toEqual([20, 60, 100]);
  });

  it('draws invert, top and water, with no flooding when the water stays below the top', () => {
    const drawing = drawProfile([segment([50, 60, 80])], { width: 200, height: 100 }, false)!;
    expect(drawing.lengthM).toBe(2);
    expect(drawing.flooded).toBe(false);
    expect(drawing.invert.startsWith('M0,100')).toBe(true);
    expect(drawing.top).toBe('M0,0 L100,0 L200,0');
  });

  it('marks where the water stands above the channel top', () => {
    const drawing = drawProfile([segment([50, 150, 160, 60])], { width: 300, height: 100 }, false)!;
    expect(drawing.flooded).toBe(true);
    expect(drawing.floods).toHaveLength(1);
    expect(drawing.floods[0]).toMatch(/^M100,.* Z$/);
  });

  it('needs slices', () => {
    expect(drawProfile([{ channelDescription: 'x', length_mm: 1, stepRaise: 0, floorChange: 0 }], { width: 100, height: 10 }, false)).toBeNull();
  });
});

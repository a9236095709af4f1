import { describe, expect, it } from 'vitest';
import { profileData } from './profileGeometry';
import { profileChart, tickDecimals, valueAt } from './profileChartOptions';

describe('the profile chart', () => {
  it('writes tick labels with the decimals their increment needs', () => {
    expect(tickDecimals(5)).toBe(0);
    expect(tickDecimals(2.5)).toBe(1);
    expect(tickDecimals(0.5)).toBe(1);
    expect(tickDecimals(0.25)).toBe(2);
    expect(tickDecimals(0.02)).toBe(2);
    expect(tickDecimals(0.005)).toBe(3);
  });

  it('reads a series between its points, taking the upstream point at a joint', () => {
    const xs = [0, 1, 2, 2, 4];
    const ys = [10, 20, 30, 0, 40];
    expect(valueAt(xs, ys, 0.5)).toBe(15);
    expect(valueAt(xs, ys, 2)).toBe(30);
    expect(valueAt(xs, ys, 3)).toBe(20);
    expect(valueAt(xs, ys, -1)).toBe(10);
    expect(valueAt(xs, ys, 9)).toBe(40);
  });

  it('hands uPlot the chainage and the three lines, and turns the axis round from the discharge end', () => {
    const segment = {
      channelDescription: 'P100',
      length_mm: 2000,
      stepRaise: 0,
      floorChange: 0,
      slices: [0, 1, 2].map((d) => ({ distance_m: d, flow_l_s: d, depth_mm: 40 + d, invert_level_m: -0.15, top_level_m: -0.02 })),
    };
    const text = { x: 'x', y: 'y', invert: 'invert', top: 'top', water: 'water', storm: 'storm' };
    const head = profileChart(profileData({ segments: [segment] }, {}, 'depth', false)!, text, String);
    expect(head.data).toEqual([head.data[0], [0, 0, 0], head.data[2], [40, 41, 42]]);
    expect(head.data[0]).toEqual([0, 1, 2]);
    expect(head.options.scales?.x?.dir).toBe(1);
    expect(head.options.series.map((s) => s.label)).toEqual(['x', 'invert', 'top', 'water']);
    const back = profileChart(profileData({ segments: [segment] }, {}, 'depth', true)!, text, String);
    expect(back.options.scales?.x?.dir).toBe(-1);
    expect(back.data[3]).toEqual([42, 41, 40]);
  });

  it("adds a controlled run's critical storm as a fourth line, straight between the server's points", () => {
    const segment = {
      channelDescription: 'H750',
      length_mm: 4000,
      stepRaise: 0,
      floorChange: 0,
      slices: [0, 1, 2, 3, 4].map((d) => ({ distance_m: d, flow_l_s: d, depth_mm: 40, invert_level_m: -0.7 - d / 100, top_level_m: -0.05 - d / 100 })),
    };
    // The storm ponds level behind the orifice: 100 mm deep at the head, 140 mm at the outlet (the invert falls 10 mm/m).
    const controlled = { water_level: [{ distance_m: 0, depth_mm: 100 }, { distance_m: 4, depth_mm: 140 }] } as never;
    const text = { x: 'x', y: 'y', invert: 'invert', top: 'top', water: 'water', storm: 'storm' };
    const depth = profileChart(profileData({ segments: [segment], controlled }, {}, 'depth', false)!, text, String);
    expect(depth.options.series.map((s) => s.label)).toEqual(['x', 'invert', 'top', 'water', 'storm']);
    expect(depth.data[4]).toEqual([100, 110, 120, 130, 140]);
    const level = profileChart(profileData({ segments: [segment], controlled }, {}, 'level', false)!, text, String);
    // Level = invert + depth: the same water level all along, as a pond is.
    for (const v of level.data[4] as number[]) expect(v).toBeCloseTo(-0.6, 9);
  });
});

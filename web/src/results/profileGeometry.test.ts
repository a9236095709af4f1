import { describe, expect, it } from 'vitest';
import type { SegmentResult } from '../design/types';
import { nearestPoint, profileData } from './profileGeometry';

// A level channel 130 mm deep (top at -0.02 m, invert at -0.15 m) with
// slices 1 m apart from `from`; depths in mm.
const segment = (depths: number[], { from = 0, channel = 'P100', supercritical = [] as number[], joints = [] as number[] } = {}): SegmentResult => ({
  channelDescription: channel,
  length_mm: (depths.length - 1) * 1000,
  stepRaise: 0,
  floorChange: 0,
  start_m: from,
  joints_m: joints,
  slices: depths.map((depth_mm, i) => ({
    distance_m: from + i,
    flow_l_s: (from + i) / 2,
    depth_mm,
    invert_level_m: -0.15,
    top_level_m: -0.02,
    velocity_m_s: 0.1 * (i + 1),
    froude: 0.5 + i / 10,
    supercritical: supercritical.includes(i),
  })),
});

const none = {};

describe('the hydraulic profile as chart data', () => {
  it('plots depth above the invert, or levels, with the channel top and water surface', () => {
    const depth = profileData({ segments: [segment([50, 60, 80])] }, none, 'depth', false)!;
    expect(depth.lengthM).toBe(2);
    expect(depth.x).toEqual([0, 1, 2]);
    expect(depth.invert).toEqual([0, 0, 0]);
    // 130 mm from invert to top.
    depth.top.forEach((v) => expect(v).toBeCloseTo(130, 9));
    expect(depth.water).toEqual([50, 60, 80]);
    expect(depth.flooded).toBe(false);

    const level = profileData({ segments: [segment([50, 60, 80])] }, none, 'level', false)!;
    expect(level.invert).toEqual([-0.15, -0.15, -0.15]);
    expect(level.top).toEqual([-0.02, -0.02, -0.02]);
    // Water level = invert + depth: -0.15 + 0.05, + 0.06, + 0.08.
    [-0.1, -0.09, -0.07].forEach((v, i) => expect(level.water[i]).toBeCloseTo(v, 12));
  });

  it('keeps each slice\'s numbers for the readout', () => {
    const data = profileData({ segments: [segment([50, 60, 80])] }, none, 'depth', false)!;
    expect(data.points[1]).toMatchObject({ chainage: 1, distanceM: 1, depthMm: 60, flowLs: 0.5, velocityMs: 0.2, froude: 0.6, channel: 'P100' });
    const old = segment([50, 60]);
    old.slices = old.slices!.map(({ velocity_m_s: _v, froude: _f, ...rest }) => rest);
    const stored = profileData({ segments: [old] }, none, 'depth', false)!;
    expect(stored.points[0]!.velocityMs).toBeNull();
    expect(stored.points[0]!.froude).toBeNull();
  });

  it('measures from the discharge end for zero_at_discharge users, in ascending chainage', () => {
    const data = profileData({ segments: [segment([50, 60, 80, 90])] }, none, 'depth', true)!;
    expect(data.x).toEqual([0, 1, 2, 3]);
    // The discharge end (head distance 3 m, 90 mm deep) comes first.
    expect(data.water).toEqual([90, 80, 60, 50]);
    expect(data.points.map((p) => p.distanceM)).toEqual([3, 2, 1, 0]);
  });

  it('marks the flooded reach from where the water crosses the top to where it crosses back', () => {
    // 130 mm available; depths 50, 150, 160, 60 at 0…3 m. The water rises
    // through the top 80/(80+20) = 0.8 of the way from 0 to 1 m, and falls
    // through it 30/(30+70) = 0.3 of the way from 2 to 3 m.
    const data = profileData({ segments: [segment([50, 150, 160, 60])] }, none, 'depth', false)!;
    expect(data.flooded).toBe(true);
    expect(data.floods).toHaveLength(1);
    const flood = data.floods[0]!;
    expect(flood.from).toBeCloseTo(0.8, 9);
    expect(flood.to).toBeCloseTo(2.3, 9);
    expect(flood.x.map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0.8, 1, 2, 2.3]);
    [130, 150, 160, 130].forEach((v, i) => expect(flood.upper[i]).toBeCloseTo(v, 6));
    flood.lower.forEach((v) => expect(v).toBeCloseTo(130, 6));

    // From the discharge end the same reach is 3 − 2.3 = 0.7 to 3 − 0.8 = 2.2 m.
    const back = profileData({ segments: [segment([50, 150, 160, 60])] }, none, 'level', true)!;
    expect(back.floods[0]!.from).toBeCloseTo(0.7, 9);
    expect(back.floods[0]!.to).toBeCloseTo(2.2, 9);
    // In levels the crossing is at the top, -0.02 m.
    expect(back.floods[0]!.upper[0]).toBeCloseTo(-0.02, 9);
  });

  it('floods to the end of the run when the water stays above the top there', () => {
    const data = profileData({ segments: [segment([140, 100, 150])] }, none, 'depth', false)!;
    // 140 at 0 m floods from the head to 10/(10+30) = 0.25 m; 150 at 2 m
    // floods from 1 + 30/(30+20) = 1.6 m to the end.
    const r9 = (v: number) => Math.round(v * 1e9) / 1e9;
    expect(data.floods.map((f) => [r9(f.from), r9(f.to)])).toEqual([
      [0, 0.25],
      [1.6, 2],
    ]);
  });

  it('shades super-critical reaches out to their critical section and jump, and places the jumps', () => {
    // Super-critical at the slices at 2 and 3 m; the flow passes critical
    // at 1.7 m and jumps at 3.4 m, between the slices.
    const results = { segments: [segment([50, 40, 20, 20, 60], { supercritical: [2, 3] })], hydraulic_jumps_m: [3.4], critical_sections_m: [1.7] };
    const head = profileData(results, none, 'depth', false)!;
    expect(head.supercritical.map(({ from, to }) => [from, to])).toEqual([[1.7, 3.4]]);
    expect(head.jumps).toEqual([3.4]);
    // From the discharge end (4 m run): 4 − 3.4 = 0.6 to 4 − 1.7 = 2.3.
    const discharge = profileData(results, none, 'depth', true)!;
    expect(discharge.supercritical.map(({ from, to }) => [from, Math.round(to * 1e9) / 1e9])).toEqual([[0.6, 2.3]]);
    expect(discharge.jumps).toEqual([0.6]);
    // Without them the reach is as long as its slices.
    expect(profileData({ segments: results.segments }, none, 'depth', false)!.supercritical).toEqual([{ from: 2, to: 3 }]);
    // A boundary beyond the next slice belongs to another reach.
    const short = { segments: [segment([50, 40, 20, 40, 60], { supercritical: [2] })], hydraulic_jumps_m: [3.5], critical_sections_m: [0.5] };
    expect(profileData(short, none, 'depth', false)!.supercritical).toEqual([{ from: 2, to: 2 }]);
  });

  it('marks element joints, and channel-size steps where the channel changes', () => {
    const results = {
      segments: [
        segment([40, 50, 60], { channel: 'Type 0.0', joints: [1] }),
        { ...segment([40, 50, 60], { from: 2, channel: 'Type 10.0', joints: [3] }), floorChange: 50 },
        // A built-in-fall element of the same name: its start is a joint.
        segment([40, 50], { from: 4, channel: 'Type 10.0' }),
      ],
    };
    const data = profileData(results, none, 'depth', false)!;
    expect(data.lengthM).toBe(5);
    expect(data.steps).toEqual([{ at: 2, channel: 'Type 10.0' }]);
    expect(data.joints).toEqual([1, 3, 4]);
    // At a joint both slices stay, the upstream one first.
    expect(data.x).toEqual([0, 1, 2, 2, 3, 4, 4, 5]);
    expect(data.points[2]!.channel).toBe('Type 0.0');
    expect(data.points[3]!.channel).toBe('Type 10.0');
    const back = profileData(results, none, 'depth', true)!;
    expect(back.steps).toEqual([{ at: 3, channel: 'Type 10.0' }]);
    expect(back.joints).toEqual([1, 2, 4]);
  });

  it('places inflows from the head and accessories from the discharge end', () => {
    const inputs = { inflows: [{ distance_m: 1.5, flow_lps: 2 }, { distance_m: 9 }], accessories: [{ distance_m: 0.5 }] };
    const head = profileData({ segments: [segment([10, 20, 30, 40, 50, 60])] }, inputs, 'depth', false)!;
    // The second inflow lies beyond the 5 m run: it is held to the end.
    expect(head.inflows).toEqual([
      { at: 1.5, flowLs: 2 },
      { at: 5, flowLs: null },
    ]);
    expect(head.accessories).toEqual([{ at: 4.5 }]);
    const discharge = profileData({ segments: [segment([10, 20, 30, 40, 50, 60])] }, inputs, 'depth', true)!;
    expect(discharge.inflows.map((i) => i.at)).toEqual([0, 3.5]);
    expect(discharge.accessories).toEqual([{ at: 0.5 }]);
  });

  it('finds the slice nearest a chainage', () => {
    const data = profileData({ segments: [segment([10, 20, 30, 40])] }, none, 'depth', false)!;
    expect(nearestPoint(data, 1.4)).toBe(1);
    expect(nearestPoint(data, 1.6)).toBe(2);
    expect(nearestPoint(data, 99)).toBe(3);
  });

  it('needs slices', () => {
    expect(profileData({ segments: [{ channelDescription: 'x', length_mm: 1, stepRaise: 0, floorChange: 0 }] }, none, 'depth', false)).toBeNull();
    expect(profileData({}, none, 'depth', false)).toBeNull();
  });
});

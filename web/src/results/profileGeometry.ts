// The hydraulic profile as chart data (spec sections 2 and 9): channel
// invert, channel top and water surface along the run from the results'
// slices, with what an engineer looks for on it: where the water stands
// above the channel top (flooding), where the flow is super-critical and
// jumps back, where elements meet and the channel changes size, and where
// point inflows and accessories sit. Everything is in the chart's own
// terms, the chainage on the horizontal axis and depth or level on the
// vertical, so that the drawing is only a matter of scaling.
import { criticalStormSeries } from './controlledProfile';
import type { Results, RunInputs, SliceResult } from '../design/types';

/** The vertical axis: depth above the invert (mm), or level (m, 0 at the grating top of the head). */
export type ProfileMode = 'depth' | 'level';

/** One slice of the profile, as the readout shows it. */
export interface ProfilePoint {
  /** Along the chart's axis, m: from the head, or from the discharge end. */
  chainage: number;
  /** From the head, m, as the results give it. */
  distanceM: number;
  depthMm: number;
  flowLs: number;
  /** Absent from results calculated before the server sent them. */
  velocityMs: number | null;
  froude: number | null;
  invertM: number;
  topM: number;
  waterM: number;
  /** Channel top above the invert, mm. */
  availableMm: number;
  supercritical: boolean;
  /** The channel of the slice's segment. */
  channel: string;
}

/** A stretch of the run along the chart's axis, from < to. */
export interface Reach {
  from: number;
  to: number;
}

/** The region between the channel top (lower) and the water (upper) where the run floods, in the mode's units. */
export interface FloodArea extends Reach {
  x: number[];
  upper: number[];
  lower: number[];
}

export interface ChannelStep {
  at: number;
  /** The channel downstream of the step. */
  channel: string;
}

export interface ProfileData {
  mode: ProfileMode;
  fromDischarge: boolean;
  lengthM: number;
  points: ProfilePoint[];
  /** The chart's series, one value per point, in the mode's units. */
  x: number[];
  invert: number[];
  top: number[];
  water: number[];
  /**
   * A controlled-discharge run's critical storm: its water, in the mode's
   * units, at each point (null off its reach); null for other runs.
   */
  storm: (number | null)[] | null;
  floods: FloodArea[];
  supercritical: Reach[];
  jumps: number[];
  /** Where elements meet (not where the channel changes). */
  joints: number[];
  steps: ChannelStep[];
  inflows: { at: number; flowLs: number | null }[];
  accessories: { at: number }[];
  flooded: boolean;
}

/** Depths closer than this to the channel top (m) do not count as flooding. */
const FLOOD_TOLERANCE_M = 1e-6;

/** Chainages are rounded to a µm so that from-discharge values do not show 9.999999. */
const roundChainage = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The profile of a calculated run, or null when the results hold no
 * slices (a run read back from a saved project until it is recalculated).
 *
 * Chainages run from the head, or for users with zero_at_discharge from the
 * discharge end; points are in ascending chainage either way (the chart
 * turns its axis round so that the head stays on the left).
 */
export function profileData(results: Pick<Results, 'segments' | 'hydraulic_jumps_m' | 'critical_sections_m' | 'controlled'>, inputs: Pick<RunInputs, 'inflows' | 'accessories'>, mode: ProfileMode, fromDischarge: boolean): ProfileData | null {
  const segments = results.segments ?? [];
  const tagged = segments.flatMap((segment, index) => (segment.slices ?? []).map((slice, order) => ({ slice, segment: index, order, channel: segment.channelDescription })));
  if (tagged.length < 2) return null;
  // A segment ends where the next begins: keep the upstream slice first.
  tagged.sort((a, b) => a.slice.distance_m - b.slice.distance_m || a.segment - b.segment || a.order - b.order);
  const start = tagged[0]!.slice.distance_m;
  const end = tagged[tagged.length - 1]!.slice.distance_m;
  const lengthM = end - start;
  if (!(lengthM > 0)) return null;

  const axis = (fromHead: number) => roundChainage(fromDischarge ? end - fromHead : fromHead - start);
  const ordered = fromDischarge ? [...tagged].reverse() : tagged;
  const points = ordered.map(({ slice, channel }) => point(slice, channel, axis(slice.distance_m)));

  const invert = points.map((p) => (mode === 'depth' ? 0 : p.invertM));
  const top = points.map((p) => (mode === 'depth' ? p.availableMm : p.topM));
  const water = points.map((p) => (mode === 'depth' ? p.depthMm : p.waterM));
  const x = points.map((p) => p.chainage);
  const floods = floodAreas(points, x, top, water);
  const stormDepths = criticalStormSeries(results as Results, ordered.map(({ slice }) => slice.distance_m));
  const storm = stormDepths && stormDepths.map((d, i) => (d === null ? null : mode === 'depth' ? d : points[i]!.invertM + d / 1000));

  const joints: number[] = [];
  const steps: ChannelStep[] = [];
  segments.forEach((segment, index) => {
    for (const at of segment.joints_m ?? []) joints.push(axis(at));
    const first = segment.slices?.[0]?.distance_m ?? segment.start_m;
    if (index === 0 || first === undefined) return;
    if (segment.channelDescription !== segments[index - 1]!.channelDescription) steps.push({ at: axis(first), channel: segment.channelDescription });
    else joints.push(axis(first));
  });

  const within = (d: number) => Math.min(Math.max(d, start), end);
  const jumps = (results.hydraulic_jumps_m ?? []).map((d) => axis(within(d))).sort((a, b) => a - b);
  const critical = (results.critical_sections_m ?? []).map((d) => axis(within(d)));
  return {
    mode,
    fromDischarge,
    lengthM,
    points,
    x,
    invert,
    top,
    water,
    storm,
    floods,
    supercritical: toBoundaries(reachesWhere(points, (p) => p.supercritical), x, [...jumps, ...critical]),
    jumps,
    joints: joints.sort((a, b) => a - b),
    steps: steps.sort((a, b) => a.at - b.at),
    // Inflows are placed from the head, accessories from the discharge end (domain/design/request.go).
    inflows: (inputs.inflows ?? []).map((inflow) => ({ at: axis(within(start + inflow.distance_m)), flowLs: inflow.flow_lps ?? null })).sort((a, b) => a.at - b.at),
    accessories: (inputs.accessories ?? []).map((accessory) => ({ at: axis(within(end - accessory.distance_m)) })).sort((a, b) => a.at - b.at),
    flooded: floods.length > 0,
  };
}

function point(slice: SliceResult, channel: string, chainage: number): ProfilePoint {
  return {
    chainage,
    distanceM: slice.distance_m,
    depthMm: slice.depth_mm,
    flowLs: slice.flow_l_s,
    velocityMs: typeof slice.velocity_m_s === 'number' ? slice.velocity_m_s : null,
    froude: typeof slice.froude === 'number' ? slice.froude : null,
    invertM: slice.invert_level_m,
    topM: slice.top_level_m,
    waterM: slice.invert_level_m + slice.depth_mm / 1000,
    availableMm: (slice.top_level_m - slice.invert_level_m) * 1000,
    supercritical: slice.supercritical === true,
    channel,
  };
}

/** Runs of consecutive points that satisfy a test, as reaches from the first to the last. */
function reachesWhere(points: readonly ProfilePoint[], test: (p: ProfilePoint) => boolean): Reach[] {
  const out: Reach[] = [];
  let from: number | null = null;
  points.forEach((p, i) => {
    if (test(p)) {
      from ??= p.chainage;
      const next = points[i + 1];
      if (!next || !test(next)) {
        out.push({ from, to: p.chainage });
        from = null;
      }
    }
  });
  return out;
}

/**
 * A super-critical reach begins at a critical section and ends at a jump
 * (or at the outlet, or a step), which lie between slices: each end of a
 * reach goes out to the nearest such boundary between it and the slice
 * beyond, so that a reach is drawn as long as it is.
 */
function toBoundaries(reaches: Reach[], x: readonly number[], boundaries: readonly number[]): Reach[] {
  return reaches.map(({ from, to }) => {
    const before = x.filter((v) => v < from).at(-1) ?? from;
    const after = x.find((v) => v > to) ?? to;
    const starts = boundaries.filter((b) => b >= before && b < from);
    const ends = boundaries.filter((b) => b > to && b <= after);
    return { from: starts.length > 0 ? Math.max(...starts) : from, to: ends.length > 0 ? Math.min(...ends) : to };
  });
}

/**
 * Where the water stands above the channel top. Each area runs from where
 * the water surface crosses the top (linearly between the slices either
 * side) to where it crosses back, or to the end of the run.
 */
function floodAreas(points: readonly ProfilePoint[], x: readonly number[], top: readonly number[], water: readonly number[]): FloodArea[] {
  const excess = points.map((p) => p.waterM - p.topM);
  const floods = (i: number) => excess[i]! > FLOOD_TOLERANCE_M;
  const crossing = (i: number, j: number) => {
    // excess[i] and excess[j] have opposite signs: the surface meets the top between them.
    const t = excess[i]! / (excess[i]! - excess[j]!);
    const at = x[i]! + t * (x[j]! - x[i]!);
    const level = top[i]! + t * (top[j]! - top[i]!);
    return { at, level };
  };
  const out: FloodArea[] = [];
  let i = 0;
  while (i < points.length) {
    if (!floods(i)) {
      i++;
      continue;
    }
    const area: FloodArea = { from: x[i]!, to: x[i]!, x: [], upper: [], lower: [] };
    if (i > 0) {
      const c = crossing(i - 1, i);
      area.x.push(c.at);
      area.upper.push(c.level);
      area.lower.push(c.level);
    }
    let j = i;
    for (; j < points.length && floods(j); j++) {
      area.x.push(x[j]!);
      area.upper.push(water[j]!);
      area.lower.push(top[j]!);
    }
    if (j < points.length) {
      const c = crossing(j - 1, j);
      area.x.push(c.at);
      area.upper.push(c.level);
      area.lower.push(c.level);
    }
    area.from = area.x[0]!;
    area.to = area.x[area.x.length - 1]!;
    out.push(area);
    i = j;
  }
  return out;
}

/** The point whose chainage is nearest to a value (the first of two at a joint). */
export function nearestPoint(data: Pick<ProfileData, 'points'>, chainage: number): number {
  let best = 0;
  data.points.forEach((p, i) => {
    if (Math.abs(p.chainage - chainage) < Math.abs(data.points[best]!.chainage - chainage)) best = i;
  });
  return best;
}

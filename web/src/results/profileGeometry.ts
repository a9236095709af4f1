// The hydraulic profile as drawing instructions (spec section 9): channel
// invert, channel top and water surface along the run from the results'
// slices, flooding where the water stands above the top, and distance
// markers at a spacing chosen by the run's length.
import type { SegmentResult, SliceResult } from '../design/types';

export interface ProfileSize {
  width: number;
  height: number;
}

/** 1000 × 100 px, or 600 × 70 when the window is narrower than 1900 px. */
export function profileSize(windowWidth: number): ProfileSize {
  return windowWidth < 1900 ? { width: 600, height: 70 } : { width: 1000, height: 100 };
}

/** Every 2 m under 20 m, 5 m under 50, 10 m under 200, else 20 m. */
export function markerSpacing(lengthM: number): number {
  if (lengthM < 20) return 2;
  if (lengthM < 50) return 5;
  if (lengthM < 200) return 10;
  return 20;
}

export interface Marker {
  /** Position along the drawing, px. */
  x: number;
  /** Distance shown, m. */
  label: number;
}

/**
 * Markers at whole multiples of the spacing, counted from the head or, for
 * users with zero_at_discharge, from the discharge end.
 */
export function markers(lengthM: number, width: number, zeroAtDischarge: boolean): Marker[] {
  if (!(lengthM > 0)) return [];
  const spacing = markerSpacing(lengthM);
  const out: Marker[] = [];
  for (let d = 0; d <= lengthM + 1e-9; d += spacing) {
    const fromHead = zeroAtDischarge ? lengthM - d : d;
    out.push({ x: (fromHead / lengthM) * width, label: Math.round(d * 10) / 10 });
  }
  return out.sort((a, b) => a.x - b.x);
}

export interface ProfileDrawing {
  lengthM: number;
  invert: string;
  top: string;
  water: string;
  /** Closed paths between channel top and water surface where the run floods. */
  floods: string[];
  /** The water body, between invert and water surface. */
  waterBody: string;
  markers: Marker[];
  /** Joints between segments, px. */
  joints: number[];
  flooded: boolean;
}

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();

/** Levels in m; the drawing keeps the slices' order along the run. */
export function drawProfile(segments: readonly SegmentResult[], size: ProfileSize, zeroAtDischarge: boolean): ProfileDrawing | null {
  const slices: SliceResult[] = segments.flatMap((segment) => segment.slices ?? []).sort((a, b) => a.distance_m - b.distance_m);
  if (slices.length < 2) return null;
  const lengthM = slices[slices.length - 1]!.distance_m - slices[0]!.distance_m;
  const start = slices[0]!.distance_m;
  if (!(lengthM > 0)) return null;

  const surface = (s: SliceResult) => s.invert_level_m + s.depth_mm / 1000;
  const lows = slices.map((s) => s.invert_level_m);
  const highs = slices.flatMap((s) => [s.top_level_m, surface(s)]);
  const low = Math.min(...lows);
  const high = Math.max(...highs);
  const span = high - low || 1;
  const x = (s: SliceResult) => ((s.distance_m - start) / lengthM) * size.width;
  const y = (level: number) => size.height - ((level - low) / span) * size.height;

  const line = (level: (s: SliceResult) => number) => slices.map((s, i) => `${i === 0 ? 'M' : 'L'}${fmt(x(s))},${fmt(y(level(s)))}`).join(' ');

  const floods: string[] = [];
  let run: SliceResult[] = [];
  const flush = () => {
    if (run.length > 0) {
      const upper = run.map((s) => `${fmt(x(s))},${fmt(y(surface(s)))}`);
      const lower = [...run].reverse().map((s) => `${fmt(x(s))},${fmt(y(s.top_level_m))}`);
      // A single flooded slice still gets a visible sliver.
      if (run.length === 1) upper.push(`${fmt(x(run[0]!) + 1)},${fmt(y(surface(run[0]!)))}`);
      floods.push(`M${[...upper, ...lower].join(' L')} Z`);
    }
    run = [];
  };
  for (const s of slices) {
    if (surface(s) > s.top_level_m + 1e-6) run.push(s);
    else flush();
  }
  flush();

  const waterTop = slices.map((s) => `${fmt(x(s))},${fmt(y(surface(s)))}`);
  const waterBottom = [...slices].reverse().map((s) => `${fmt(x(s))},${fmt(y(s.invert_level_m))}`);
  const joints = segments
    .slice(1)
    .map((segment) => segment.slices?.[0]?.distance_m)
    .filter((d): d is number => d !== undefined)
    .map((d) => ((d - start) / lengthM) * size.width);

  return {
    lengthM,
    invert: line((s) => s.invert_level_m),
    top: line((s) => s.top_level_m),
    water: line(surface),
    waterBody: `M${[...waterTop, ...waterBottom].join(' L')} Z`,
    floods,
    markers: markers(lengthM, size.width, zeroAtDischarge),
    joints,
    flooded: floods.length > 0,
  };
}

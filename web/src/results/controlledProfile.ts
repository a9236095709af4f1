// The water of a controlled-discharge run's critical storm along the
// profile, for the hydraulic profile chart: the server answers it as a few
// points (results.controlled.water_level, distances from the head, depths
// above the invert), straight between them; these put it on the chart's
// own distances. Nothing here computes hydraulics: it only interpolates
// between the server's points.
import type { LevelPoint, Results, SegmentResult } from '../design/types';

/** The critical storm's highest water along the run, or null for a run without controlled discharge. */
export function criticalStormLevel(results: Results | null | undefined): LevelPoint[] | null {
  const points = results?.controlled?.water_level;
  return Array.isArray(points) && points.length >= 2 ? points : null;
}

/** The depth (mm) at a distance from the head (m), straight between the points; null off the run. */
export function criticalStormDepthAt(points: LevelPoint[], distanceM: number): number | null {
  if (points.length === 0 || !Number.isFinite(distanceM)) return null;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (distanceM < first.distance_m - 1e-9 || distanceM > last.distance_m + 1e-9) return null;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    if (distanceM <= b.distance_m + 1e-9) {
      const span = b.distance_m - a.distance_m;
      if (span <= 0) return b.depth_mm;
      const f = Math.min(1, Math.max(0, (distanceM - a.distance_m) / span));
      return a.depth_mm + f * (b.depth_mm - a.depth_mm);
    }
  }
  return last.depth_mm;
}

/** The critical storm's depth (mm) at each of the chart's distances (m from the head): a series aligned with them. */
export function criticalStormSeries(results: Results | null | undefined, distances: readonly number[]): (number | null)[] | null {
  const points = criticalStormLevel(results);
  if (!points) return null;
  return distances.map((x) => criticalStormDepthAt(points, x));
}

export interface SurfacePoint {
  distance_m: number;
  /** Water surface level, m (the slices' datum): the invert plus the critical storm's depth. */
  level_m: number;
}

/** The critical storm's water surface at the profile's slices, as levels on the slices' own datum; empty without slices. */
export function criticalStormSurface(results: Results | null | undefined, segments: readonly SegmentResult[] = results?.segments ?? []): SurfacePoint[] {
  const points = criticalStormLevel(results);
  if (!points) return [];
  const out: SurfacePoint[] = [];
  for (const segment of segments) {
    for (const slice of segment.slices ?? []) {
      const depth = criticalStormDepthAt(points, slice.distance_m);
      if (depth !== null) out.push({ distance_m: slice.distance_m, level_m: slice.invert_level_m + depth / 1000 });
    }
  }
  return out;
}

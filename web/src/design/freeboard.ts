import type { FreeboardSetting } from '../api/projectTypes';
import type { Results } from './types';

/**
 * The least freeboard a run should keep, as domain/project/freeboard.go
 * defines it: a run is flagged when its freeboard is under `minMM` or
 * under `minPercent` of the channel's depth. Null keeps the default; zero
 * turns that test off.
 */
export interface FreeboardMargin {
  minMM: number | null;
  minPercent: number | null;
}

/** The defaults of docs/decisions.md ("Freeboard margin"), the same as the server's. */
export const DEFAULT_FREEBOARD_MIN_MM = 20;
export const DEFAULT_FREEBOARD_MIN_PERCENT = 10;

export const NO_MARGIN: FreeboardMargin = { minMM: null, minPercent: null };

/** The margin a project view, load or save answer carries. */
export function marginOf(setting: FreeboardSetting): FreeboardMargin {
  return { minMM: setting.freeboard_min_mm ?? null, minPercent: setting.freeboard_min_percent ?? null };
}

/** The margin as the server's settings fields; unset parts are sent as null (the default). */
export function marginSetting(margin: FreeboardMargin): Required<FreeboardSetting> {
  return { freeboard_min_mm: margin.minMM, freeboard_min_percent: margin.minPercent };
}

export function sameMargin(a: FreeboardMargin, b: FreeboardMargin): boolean {
  return a.minMM === b.minMM && a.minPercent === b.minPercent;
}

/** The margin in force: the project's own parts, the defaults elsewhere. */
export function effectiveMargin(margin: FreeboardMargin): { minMM: number; minPercent: number } {
  return { minMM: margin.minMM ?? DEFAULT_FREEBOARD_MIN_MM, minPercent: margin.minPercent ?? DEFAULT_FREEBOARD_MIN_PERCENT };
}

/**
 * The freeboard that governs a calculated channel run (mm, and % of the
 * channel depth at the outlet): the calculation's, or the critical storm's
 * when a controlled discharge holds the water back and leaves less. Null
 * for a flooded run (its own, stronger warning) and for a gully (no
 * freeboard).
 */
export function governingFreeboard(results: Results | null | undefined): { mm: number; percent: number } | null {
  if (!results?.calculated || results.overflowed || results.point) return null;
  let mm = results.freeboard ?? Number.POSITIVE_INFINITY;
  let percent = results.freeboard_percent ?? Number.POSITIVE_INFINITY;
  const storm = results.controlled;
  if (storm) {
    const stormMM = storm.flooded ? 0 : storm.minimum_free_board_m * 1000;
    const depth = results.invert_depth_mm ?? 0;
    if (stormMM < mm) {
      mm = stormMM;
      percent = depth > 0 ? (100 * stormMM) / depth : 0;
    }
  }
  return { mm, percent };
}

/** Whether a calculated channel run keeps less freeboard than the margin. */
export function lowFreeboard(results: Results | null | undefined, margin: FreeboardMargin): boolean {
  const governing = governingFreeboard(results);
  if (!governing) return false;
  const { minMM, minPercent } = effectiveMargin(margin);
  return governing.mm < minMM || governing.percent < minPercent;
}

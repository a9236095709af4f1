// An irregular catchment (design-tool.md sections 2 to 5): the ground either
// side of the channel as areas laid one after the other along the run, each
// a trapezoid with a length, a width at its start and at its end (measured
// away from the channel) and a surface whose permeability says how much of
// the rain on it runs off. The left side is drawn above the channel, the
// right side below. These are the pure rules: generating the areas from the
// run's length and area, dividing one in two, merging neighbours, moving a
// corner, and what the areas give (surface, runoff, design flow).
import { SURFACES, type SurfaceCode } from '../design/runRules';

export type Side = 'left' | 'right';
export const SIDES: readonly Side[] = ['left', 'right'];

/** One area as a run stores it and the server reads it (domain/design AreaInput). */
export interface CatchmentArea {
  /** Where the area starts, m from the head. */
  xOrigin: number;
  length_m: number;
  start_width_m: number;
  end_width_m: number;
  /** The surface category; the server also takes the value beside it. */
  permeability: SurfaceCode;
  permeability_value: number;
}

export interface Catchment {
  left: CatchmentArea[];
  right: CatchmentArea[];
}

/** Which area: a side and its place along that side, from the head. */
export interface AreaRef {
  side: Side;
  index: number;
}

export type Corner = 'start' | 'end';

/** Lengths and split positions move in steps of 0.1 m; the shortest piece is 0.1 m (spec sections 5 and 9). */
export const LENGTH_STEP_M = 0.1;
export const MIN_PIECE_M = 0.1;
/** Widths are kept to one decimal when a designer sets them. */
export const WIDTH_STEP_M = 0.1;

/** Lengths are compared to a µm: the sums of tenths are not exact in binary. */
const EPS = 1e-6;

const round = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};

/** The surface's permeability value, or the custom value given. */
export function surfaceValue(code: SurfaceCode, custom: number): number {
  const surface = SURFACES.find((s) => s.code === code);
  return surface && surface.value !== null ? surface.value : Math.min(1, Math.max(0, custom));
}

export function areaOf(area: Pick<CatchmentArea, 'length_m' | 'start_width_m' | 'end_width_m'>): number {
  return (area.length_m * (area.start_width_m + area.end_width_m)) / 2;
}

/** Rain that runs off the area, as an equivalent impermeable surface (m²). */
export function runoffAreaOf(area: CatchmentArea): number {
  return areaOf(area) * area.permeability_value;
}

export function totalArea(catchment: Catchment): number {
  return [...catchment.left, ...catchment.right].reduce((sum, area) => sum + areaOf(area), 0);
}

export function totalRunoffArea(catchment: Catchment): number {
  return [...catchment.left, ...catchment.right].reduce((sum, area) => sum + runoffAreaOf(area), 0);
}

/**
 * The design flow of the catchment (l/s): the runoff area times the rainfall
 * intensity. 1 mm/h on 1 m² is 1 l/h, so l/s = m² × mm/h / 3600.
 */
export function designFlowLps(catchment: Catchment, intensityMmPerHr: number): number {
  return (totalRunoffArea(catchment) * intensityMmPerHr) / 3600;
}

/**
 * The areas a run starts with (spec section 4, "Catchment"): one area each
 * side along the whole run, as deep as the uniform catchment
 * (depth = area / length / 2), so that both together hold the run's area.
 * Generation needs a length and an area above 0.
 */
export function generateAreas(lengthM: number | null | undefined, areaM2: number | null | undefined, surface: SurfaceCode, permeability: number): Catchment | null {
  if (!(typeof lengthM === 'number' && lengthM > 0) || !(typeof areaM2 === 'number' && areaM2 > 0)) return null;
  const depth = areaM2 / lengthM / 2;
  const value = surfaceValue(surface, permeability);
  const one = (): CatchmentArea => ({ xOrigin: 0, length_m: lengthM, start_width_m: depth, end_width_m: depth, permeability: surface, permeability_value: value });
  return { left: [one()], right: [one()] };
}

/** Whether the areas of each side cover the run from the head to its end, one after the other. */
export function coversRun(catchment: Catchment, lengthM: number): boolean {
  return SIDES.every((side) => {
    const areas = catchment[side];
    if (areas.length === 0) return false;
    let x = 0;
    for (const area of areas) {
      if (Math.abs(area.xOrigin - x) > EPS || !(area.length_m > 0)) return false;
      x += area.length_m;
    }
    return Math.abs(x - lengthM) <= EPS;
  });
}

/** The width of an area at a distance from its start, straight between its corners. */
export function widthAt(area: CatchmentArea, fromStart: number): number {
  if (!(area.length_m > 0)) return area.start_width_m;
  return area.start_width_m + ((area.end_width_m - area.start_width_m) * fromStart) / area.length_m;
}

/** The split positions an area may be divided at: 0.1 m from either end at least (spec section 5). */
export function splitRange(area: Pick<CatchmentArea, 'length_m'>): { min: number; max: number } | null {
  const max = round(area.length_m - MIN_PIECE_M, 6);
  if (max + EPS < MIN_PIECE_M) return null;
  return { min: MIN_PIECE_M, max };
}

/** A division needs room for two pieces of at least 0.1 m. */
export function canDivide(area: Pick<CatchmentArea, 'length_m'>): boolean {
  return splitRange(area) !== null;
}

/**
 * The divide window's two lengths when one of them is typed: the typed one
 * to a step of 0.1 m within the allowed range, the other the rest of the
 * area, so that the two always sum to the area's length.
 */
export function splitLengths(area: Pick<CatchmentArea, 'length_m'>, typed: number, which: 'left' | 'right'): { left: number; right: number } | null {
  const range = splitRange(area);
  if (!range || !Number.isFinite(typed)) return null;
  const stepped = round(round(typed / LENGTH_STEP_M, 0) * LENGTH_STEP_M, 6);
  const own = Math.min(range.max, Math.max(range.min, stepped));
  const other = round(area.length_m - own, 6);
  return which === 'left' ? { left: own, right: other } : { left: other, right: own };
}

/** The two pieces an area divides into, the first `leftLength` long; widths at the cut follow the area's sloping edge. */
export function dividedPieces(area: CatchmentArea, leftLength: number): [CatchmentArea, CatchmentArea] | null {
  const lengths = splitLengths(area, leftLength, 'left');
  if (!lengths) return null;
  const cut = widthAt(area, lengths.left);
  return [
    { ...area, length_m: lengths.left, end_width_m: cut },
    { ...area, xOrigin: round(area.xOrigin + lengths.left, 6), length_m: lengths.right, start_width_m: cut },
  ];
}

function withSide(catchment: Catchment, side: Side, areas: CatchmentArea[]): Catchment {
  return { ...catchment, [side]: areas };
}

/** Divides an area in two at `leftLength` from its start; null when it cannot be divided there. */
export function divideArea(catchment: Catchment, ref: AreaRef, leftLength: number): Catchment | null {
  const areas = catchment[ref.side];
  const area = areas[ref.index];
  if (!area) return null;
  const pieces = dividedPieces(area, leftLength);
  if (!pieces) return null;
  return withSide(catchment, ref.side, [...areas.slice(0, ref.index), ...pieces, ...areas.slice(ref.index + 1)]);
}

/** Two areas may merge only when they are neighbours on one side and the first ends where the second starts. */
export function canMerge(catchment: Catchment, a: AreaRef, b: AreaRef): boolean {
  if (a.side !== b.side || Math.abs(a.index - b.index) !== 1) return false;
  const areas = catchment[a.side];
  const first = areas[Math.min(a.index, b.index)];
  const second = areas[Math.max(a.index, b.index)];
  if (!first || !second) return false;
  return Math.abs(first.xOrigin + first.length_m - second.xOrigin) <= EPS;
}

/**
 * Merges two neighbouring areas into one from the first's start to the
 * second's end, with the first's start width, the second's end width and
 * the surface of the area the designer merges from (`keep`).
 */
export function mergeAreas(catchment: Catchment, a: AreaRef, b: AreaRef): Catchment | null {
  if (!canMerge(catchment, a, b)) return null;
  const areas = catchment[a.side];
  const i = Math.min(a.index, b.index);
  const first = areas[i]!;
  const second = areas[i + 1]!;
  const surface = areas[a.index]!;
  const merged: CatchmentArea = {
    xOrigin: first.xOrigin,
    length_m: round(first.length_m + second.length_m, 6),
    start_width_m: first.start_width_m,
    end_width_m: second.end_width_m,
    permeability: surface.permeability,
    permeability_value: surface.permeability_value,
  };
  return withSide(catchment, a.side, [...areas.slice(0, i), merged, ...areas.slice(i + 2)]);
}

/** The neighbour that shares a corner with an area's start or end, if their widths meet there. */
export function joinedNeighbour(catchment: Catchment, ref: AreaRef, corner: Corner): AreaRef | null {
  const areas = catchment[ref.side];
  const area = areas[ref.index];
  const index = corner === 'start' ? ref.index - 1 : ref.index + 1;
  const other = areas[index];
  if (!area || !other) return null;
  const joined = corner === 'start' ? other.end_width_m : other.start_width_m;
  const own = corner === 'start' ? area.start_width_m : area.end_width_m;
  const touching = corner === 'start' ? Math.abs(other.xOrigin + other.length_m - area.xOrigin) <= EPS : Math.abs(area.xOrigin + area.length_m - other.xOrigin) <= EPS;
  return touching && Math.abs(joined - own) <= EPS ? { side: ref.side, index } : null;
}

/**
 * Moves a corner of an area to a new width, kept to 0.1 m between 0 and
 * `maxWidth` (the edge of the editor's canvas). A corner the neighbour
 * shares moves with it, so that the outline stays closed, unless `alone`.
 */
export function setCornerWidth(catchment: Catchment, ref: AreaRef, corner: Corner, width: number, maxWidth: number, alone = false): Catchment {
  const areas = catchment[ref.side];
  const area = areas[ref.index];
  if (!area || !Number.isFinite(width)) return catchment;
  const ceiling = Math.max(0, Math.floor(maxWidth / WIDTH_STEP_M + EPS) * WIDTH_STEP_M);
  const next = Math.min(round(ceiling, 6), Math.max(0, round(round(width / WIDTH_STEP_M, 0) * WIDTH_STEP_M, 6)));
  const neighbour = alone ? null : joinedNeighbour(catchment, ref, corner);
  const updated = areas.map((a, i) => {
    if (i === ref.index) return corner === 'start' ? { ...a, start_width_m: next } : { ...a, end_width_m: next };
    if (neighbour && i === neighbour.index) return corner === 'start' ? { ...a, end_width_m: next } : { ...a, start_width_m: next };
    return a;
  });
  return withSide(catchment, ref.side, updated);
}

/** Gives an area a surface, or a custom permeability from 0 to 1. */
export function setAreaSurface(catchment: Catchment, ref: AreaRef, surface: SurfaceCode, custom?: number): Catchment {
  const areas = catchment[ref.side];
  const area = areas[ref.index];
  if (!area) return catchment;
  const value = surface === 'custom' ? Math.min(1, Math.max(0, round(custom ?? area.permeability_value, 2))) : surfaceValue(surface, area.permeability_value);
  return withSide(
    catchment,
    ref.side,
    areas.map((a, i) => (i === ref.index ? { ...a, permeability: surface, permeability_value: value } : a)),
  );
}

/** Every area in reading order (left side from the head, then the right side), for keyboard stepping. */
export function allRefs(catchment: Catchment): AreaRef[] {
  return SIDES.flatMap((side) => catchment[side].map((_, index) => ({ side, index })));
}

export function sameRef(a: AreaRef | null | undefined, b: AreaRef | null | undefined): boolean {
  return !!a && !!b && a.side === b.side && a.index === b.index;
}

/** The run's catchment as stored, or null when it holds none. */
export function catchmentOf(inputs: { leftAreas?: unknown; rightAreas?: unknown }): Catchment | null {
  const left = Array.isArray(inputs.leftAreas) ? (inputs.leftAreas as CatchmentArea[]) : null;
  const right = Array.isArray(inputs.rightAreas) ? (inputs.rightAreas as CatchmentArea[]) : null;
  if (!left || !right || left.length + right.length === 0) return null;
  return { left: normalised(left), right: normalised(right) };
}

/**
 * Areas saved by an older client may lack the value beside the surface, the
 * surface, or where they start (then they follow one another from the head,
 * as the server reads them).
 */
function normalised(areas: CatchmentArea[]): CatchmentArea[] {
  let x = 0;
  return areas.map((area) => {
    const raw = area.permeability as unknown;
    const code = SURFACES.some((s) => s.code === raw) ? area.permeability : 'custom';
    const value = typeof area.permeability_value === 'number' ? area.permeability_value : surfaceValue(code, typeof raw === 'number' ? raw : 1);
    if (typeof area.xOrigin === 'number') x = area.xOrigin;
    const out = { ...area, xOrigin: x, permeability: code, permeability_value: value };
    x += area.length_m;
    return out;
  });
}

// The catchment drawn on the editor's canvas (design-tool.md section 2):
// the run from left (head) to right (discharge), the channel a 10 px band
// across the middle, the left areas above it and the right areas below,
// each a polygon. Lengths are to one scale across, widths to another up
// and down, so that a long narrow yard still fills the canvas. These are
// the pure sums the drawing, the pointer and the tests share.
import { areaOf, SIDES, type AreaRef, type Catchment, type CatchmentArea, type Corner, type Side } from './areas';

export const CANVAS_HEIGHT = 350;
/** Pictures of a catchment (not the editor) are drawn lower, with a small margin above the widest area. */
export const PICTURE_HEIGHT = 220;
export const PICTURE_HEADROOM = 1.1;
export const CHANNEL_PX = 10;
/** The canvas is 1000 px wide on a window of at least 1900 px, 500 px otherwise. */
export const WIDE_WINDOW_PX = 1900;
const SIDE_PAD_PX = 16;
const TOP_PAD_PX = 12;
/** Labels go on areas at least this long (m). */
export const LABEL_MIN_LENGTH_M = 1;

export function canvasWidth(windowWidth: number): number {
  return windowWidth >= WIDE_WINDOW_PX ? 1000 : 500;
}

export interface Scale {
  width: number;
  height: number;
  lengthM: number;
  /** Pixels per metre along the run and across it. */
  pxPerMAlong: number;
  pxPerMAcross: number;
}

/** Room for an area's width on either side of the channel, px. */
const sideRoom = (height: number) => height / 2 - CHANNEL_PX / 2 - TOP_PAD_PX;

/**
 * The scale of a drawing: the run fills the width; across, the widest area
 * takes 1 / `headroom` of the room either side. The editor leaves room to
 * drag a corner out to twice the widest width before it meets the canvas
 * edge (headroom 2); a picture only needs a margin.
 */
export function scaleFor(catchment: Catchment, lengthM: number, width: number, height = CANVAS_HEIGHT, headroom = 2): Scale {
  const widest = Math.max(0, ...[...catchment.left, ...catchment.right].flatMap((a) => [a.start_width_m, a.end_width_m]));
  const run = lengthM > 0 ? lengthM : 1;
  return {
    width,
    height,
    lengthM: run,
    pxPerMAlong: (width - 2 * SIDE_PAD_PX) / run,
    pxPerMAcross: sideRoom(height) / (widest > 0 ? widest * headroom : 1),
  };
}

/** The widest width a corner can be dragged to: the edge of the canvas. */
export function maxWidthM(scale: Scale): number {
  return sideRoom(scale.height) / scale.pxPerMAcross;
}

export const xOf = (scale: Scale, metres: number) => SIDE_PAD_PX + metres * scale.pxPerMAlong;
export const mOf = (scale: Scale, x: number) => (x - SIDE_PAD_PX) / scale.pxPerMAlong;

/** The channel band's edge a side's areas stand on. */
export function channelEdge(scale: Scale, side: Side): number {
  return side === 'left' ? scale.height / 2 - CHANNEL_PX / 2 : scale.height / 2 + CHANNEL_PX / 2;
}

/** The y of a width on a side: up from the channel for the left side, down for the right. */
export function yOf(scale: Scale, side: Side, widthM: number): number {
  const edge = channelEdge(scale, side);
  return side === 'left' ? edge - widthM * scale.pxPerMAcross : edge + widthM * scale.pxPerMAcross;
}

/** The width a pointer's y stands for on a side, within the canvas. */
export function widthAtY(scale: Scale, side: Side, y: number): number {
  const edge = channelEdge(scale, side);
  const px = side === 'left' ? edge - y : y - edge;
  return Math.min(maxWidthM(scale), Math.max(0, px / scale.pxPerMAcross));
}

export type Point = [number, number];

/** An area's polygon: along the channel, then out to its end width and back to its start width. */
export function polygonOf(scale: Scale, side: Side, area: CatchmentArea): Point[] {
  const x0 = xOf(scale, area.xOrigin);
  const x1 = xOf(scale, area.xOrigin + area.length_m);
  const edge = channelEdge(scale, side);
  return [
    [x0, edge],
    [x1, edge],
    [x1, yOf(scale, side, area.end_width_m)],
    [x0, yOf(scale, side, area.start_width_m)],
  ];
}

export function cornerPoint(scale: Scale, side: Side, area: CatchmentArea, corner: Corner): Point {
  return corner === 'start'
    ? [xOf(scale, area.xOrigin), yOf(scale, side, area.start_width_m)]
    : [xOf(scale, area.xOrigin + area.length_m), yOf(scale, side, area.end_width_m)];
}

/** Where an area's number goes (the middle of its polygon), or null when it is shorter than 1 m. */
export function labelPoint(scale: Scale, side: Side, area: CatchmentArea): Point | null {
  if (area.length_m < LABEL_MIN_LENGTH_M) return null;
  const x = xOf(scale, area.xOrigin + area.length_m / 2);
  const mid = (area.start_width_m + area.end_width_m) / 2;
  return [x, (channelEdge(scale, side) + yOf(scale, side, mid)) / 2];
}

/** Ray casting: whether a point lies inside a polygon. */
export function insidePolygon(point: Point, polygon: readonly Point[]): boolean {
  const [x, y] = point;
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The area under a point of the canvas, if any. A flat area (no width) is found by its stretch of the channel edge. */
export function areaAt(scale: Scale, catchment: Catchment, point: Point): AreaRef | null {
  for (const side of SIDES) {
    const index = catchment[side].findIndex((area) => insidePolygon(point, polygonOf(scale, side, area)));
    if (index >= 0) return { side, index };
  }
  return null;
}

/** The corner handle within `radius` px of a point, for the selected area. */
export function cornerAt(scale: Scale, catchment: Catchment, ref: AreaRef, point: Point, radius = 8): Corner | null {
  const area = catchment[ref.side][ref.index];
  if (!area) return null;
  for (const corner of ['start', 'end'] as const) {
    const [cx, cy] = cornerPoint(scale, ref.side, area, corner);
    if (Math.hypot(cx - point[0], cy - point[1]) <= radius) return corner;
  }
  return null;
}

/** An area's description for a screen reader and the tests: side, number, where it lies and its widths. */
export interface AreaSummary {
  ref: AreaRef;
  number: number;
  fromM: number;
  toM: number;
  lengthM: number;
  startWidthM: number;
  endWidthM: number;
  areaM2: number;
  permeability: number;
}

export function summaries(catchment: Catchment): AreaSummary[] {
  return SIDES.flatMap((side) =>
    catchment[side].map((area, index) => ({
      ref: { side, index },
      number: index + 1,
      fromM: area.xOrigin,
      toM: area.xOrigin + area.length_m,
      lengthM: area.length_m,
      startWidthM: area.start_width_m,
      endWidthM: area.end_width_m,
      areaM2: areaOf(area),
      permeability: area.permeability_value,
    })),
  );
}

import type { ChannelShape, ChannelUse, Results } from '../design/types';

/**
 * A channel's cross-section to scale, in millimetres: x across the channel
 * from the outer face of its left wall, y down from the top of the body
 * (where the grating sits). Built only from the catalogue's dimensions, so
 * the drawing and the specification table cannot disagree.
 */
export interface CrossSectionGeometry {
  /** Outer size of the body: outer width by body height. */
  outerWidth: number;
  bodyHeight: number;
  /** Internal width at the top of the waterway, and the invert's depth below the top. */
  internalWidth: number;
  invertDepth: number;
  /** The waterway's outline (an SVG path in mm), clockwise from its top left. */
  waterway: string;
  /** Depth of water drawn above the invert (mm), never above the waterway's top. */
  waterDepth: number;
  /** Left edge of the waterway (mm from the body's outer left face). */
  left: number;
}

/** Whether a stretch carries the geometry a drawing needs (results before it existed do not). */
export function drawable(use: ChannelUse | undefined): use is Required<ChannelUse> {
  return !!use && (use.width_mm ?? 0) > 0 && (use.invert_depth_downstream_mm ?? 0) > 0 && !!use.shape;
}

/**
 * The cross-section of a stretch at its downstream end (the deepest point
 * of a channel with built-in fall), with its deepest water. A body without
 * a recorded outer size (none in the catalogue today) is drawn with 15 %
 * walls and a 40 mm floor.
 */
export function crossSectionGeometry(use: Required<ChannelUse>): CrossSectionGeometry {
  const width = use.width_mm;
  const invert = use.invert_depth_downstream_mm;
  const outerWidth = use.outer_width_mm > width ? use.outer_width_mm : width + 2 * Math.max(width * 0.15, 10);
  const bodyHeight = use.body_height_mm > invert ? use.body_height_mm : invert + 40;
  const left = (outerWidth - width) / 2;
  return {
    outerWidth,
    bodyHeight,
    internalWidth: width,
    invertDepth: invert,
    waterway: waterwayPath(use.shape, left, width, invert),
    waterDepth: Math.max(0, Math.min(use.max_water_depth_mm, invert)),
    left,
  };
}

/** The waterway outline for each catalogue shape kind. */
function waterwayPath(shape: ChannelShape, left: number, width: number, depth: number): string {
  const right = left + width;
  const f = (v: number) => Number(v.toFixed(2));
  switch (shape.kind) {
    case 'u': {
      // Vertical walls down to a round bottom of the shape's radius (a full semicircle at width / 2).
      const r = Math.min(shape.radius_mm ?? width / 2, width / 2, depth);
      const wall = depth - r;
      return [
        `M${f(left)},0`,
        `L${f(right)},0`,
        `L${f(right)},${f(wall)}`,
        `A${f(r)},${f(r)} 0 0 1 ${f(right - r)},${f(depth)}`,
        `L${f(left + r)},${f(depth)}`,
        `A${f(r)},${f(r)} 0 0 1 ${f(left)},${f(wall)}`,
        'Z',
      ].join(' ');
    }
    case 'slot': {
      // A narrow slot at the top over a U body: the slot takes the grating's place.
      const slotWidth = Math.min(shape.slot_width_mm ?? width / 5, width);
      const slotHeight = Math.min(shape.slot_height_mm ?? 0, depth);
      const slotLeft = left + (width - slotWidth) / 2;
      const r = Math.min(shape.radius_mm ?? width / 2, width / 2, depth - slotHeight);
      const wall = depth - r;
      return [
        `M${f(slotLeft)},0`,
        `L${f(slotLeft + slotWidth)},0`,
        `L${f(slotLeft + slotWidth)},${f(slotHeight)}`,
        `L${f(right)},${f(slotHeight)}`,
        `L${f(right)},${f(wall)}`,
        `A${f(r)},${f(r)} 0 0 1 ${f(right - r)},${f(depth)}`,
        `L${f(left + r)},${f(depth)}`,
        `A${f(r)},${f(r)} 0 0 1 ${f(left)},${f(wall)}`,
        `L${f(left)},${f(slotHeight)}`,
        `L${f(slotLeft)},${f(slotHeight)}`,
        'Z',
      ].join(' ');
    }
    default:
      return `M${f(left)},0 L${f(right)},0 L${f(right)},${f(depth)} L${f(left)},${f(depth)} Z`;
  }
}

/**
 * A stand-in stretch for results calculated before stretches carried their
 * geometry (projects saved earlier, until calculated again): a rectangle of
 * the table's internal width, invert depth and overall depth, drawn as a
 * generic section.
 */
export function genericStretch(results: Results): Required<ChannelUse> | null {
  const width = results.channel_internal_width_mm ?? 0;
  const invert = results.invert_depth_mm ?? 0;
  if (!(width > 0) || !(invert > 0)) return null;
  return {
    slug: '',
    name: results.largest_channel ?? '',
    count: 0,
    length_mm: 0,
    from_m: 0,
    to_m: 0,
    width_mm: width,
    outer_width_mm: 0,
    body_height_mm: results.overall_depth_mm ?? 0,
    invert_depth_upstream_mm: invert,
    invert_depth_downstream_mm: invert,
    shape: { kind: 'rectangular', width_mm: width },
    max_water_depth_mm: results.outlet_depth_mm ?? results.max_depth_mm ?? 0,
  };
}

/** The stretch a cross-section shows first: the outlet's, where the channel is deepest. */
export function outletStretch(uses: ChannelUse[] | undefined): number {
  return Math.max(0, (uses?.length ?? 0) - 1);
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChannelShape, ChannelUse } from '../design/types';
import { crossSectionGeometry, drawable, outletStretch } from './crossSectionGeometry';

// The catalogue the server calculates with (domain/catalogue/data), read from disk.
interface CatalogueChannel {
  slug: string;
  name: string;
  width_mm: number;
  outer_width_mm: number;
  body_height_mm: number;
  invert_depth_upstream_mm: number;
  invert_depth_downstream_mm: number;
  shape: ChannelShape;
}
const dir = join(import.meta.dirname, '../../../domain/catalogue/data/channels');
const channels: CatalogueChannel[] = readdirSync(dir).flatMap((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as CatalogueChannel[]);

const stretch = (c: CatalogueChannel, water = 0): Required<ChannelUse> => ({
  slug: c.slug,
  name: c.name,
  count: 1,
  length_mm: 1000,
  from_m: 0,
  to_m: 1,
  width_mm: c.width_mm,
  outer_width_mm: c.outer_width_mm,
  body_height_mm: c.body_height_mm,
  invert_depth_upstream_mm: c.invert_depth_upstream_mm,
  invert_depth_downstream_mm: c.invert_depth_downstream_mm,
  shape: c.shape,
  max_water_depth_mm: water,
});

/** The points a path passes through (arc end points included; the arcs stay within them here). */
function pathBox(d: string) {
  const numbers = [...d.matchAll(/[ML]\s*([\d.]+),([\d.]+)|A[\d.]+,[\d.]+ 0 0 1 ([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1] ?? m[3]), Number(m[2] ?? m[4])] as const);
  const xs = numbers.map(([x]) => x);
  const ys = numbers.map(([, y]) => y);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

describe('the cross-section geometry', () => {
  it('reads the whole catalogue', () => {
    expect(channels.length).toBeGreaterThan(100);
    expect(new Set(channels.map((c) => c.shape.kind))).toEqual(new Set(['rectangular', 'u', 'slot']));
  });

  it.each(channels.map((c) => [c.slug, c] as const))('%s is drawn with its catalogue dimensions', (_slug, c) => {
    const g = crossSectionGeometry(stretch(c));
    expect(g.internalWidth).toBe(c.width_mm);
    expect(g.invertDepth).toBe(c.invert_depth_downstream_mm);
    expect(g.outerWidth).toBe(c.outer_width_mm);
    expect(g.bodyHeight).toBe(c.body_height_mm);
    // The waterway spans the internal width, centred in the body, from the top down to the invert.
    const box = pathBox(g.waterway);
    expect(box.minX).toBeCloseTo((c.outer_width_mm - c.width_mm) / 2, 1);
    expect(box.maxX).toBeCloseTo((c.outer_width_mm + c.width_mm) / 2, 1);
    expect(box.minY).toBe(0);
    expect(box.maxY).toBeCloseTo(c.invert_depth_downstream_mm, 1);
  });

  it('draws a U bottom as arcs of the catalogue radius and a slot at the slot width', () => {
    const u = channels.find((c) => c.shape.kind === 'u')!;
    expect(crossSectionGeometry(stretch(u)).waterway).toContain(`A${u.shape.radius_mm},${u.shape.radius_mm}`);
    const slot = channels.find((c) => c.shape.kind === 'slot')!;
    const g = crossSectionGeometry(stretch(slot));
    const slotLeft = g.left + (slot.width_mm - slot.shape.slot_width_mm!) / 2;
    expect(g.waterway.startsWith(`M${slotLeft},0 L${slotLeft + slot.shape.slot_width_mm!},0 L${slotLeft + slot.shape.slot_width_mm!},${slot.shape.slot_height_mm}`)).toBe(true);
  });

  it('draws the water at its depth, never above the invert depth', () => {
    const c = channels[0]!;
    expect(crossSectionGeometry(stretch(c, 123.4)).waterDepth).toBe(123.4);
    expect(crossSectionGeometry(stretch(c, 5000)).waterDepth).toBe(c.invert_depth_downstream_mm);
  });

  it('shows the outlet stretch first and skips results without geometry', () => {
    expect(outletStretch([{ slug: 'a', name: 'A', count: 1, length_mm: 1 }, { slug: 'b', name: 'B', count: 1, length_mm: 1 }])).toBe(1);
    expect(outletStretch(undefined)).toBe(0);
    expect(drawable({ slug: 'a', name: 'A', count: 1, length_mm: 1 })).toBe(false);
    expect(drawable(stretch(channels[0]!))).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Topology } from 'topojson-specification';
import { outlineOf } from './ukOutlineExtract';

const topology = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('world-atlas/countries-10m.json'), 'utf8')) as Topology;

describe('the UK outline', () => {
  const outline = outlineOf(topology);
  const points = outline.geometry.coordinates.flatMap((polygon) => polygon.flat());

  it('is Great Britain and Northern Ireland, within the UK’s extent', () => {
    expect(outline.geometry.coordinates.length).toBeGreaterThan(10);
    const lngs = points.map(([lng = 0]) => lng);
    const lats = points.map(([, lat = 0]) => lat);
    expect(Math.min(...lngs)).toBeGreaterThan(-8.7); // west of Northern Ireland, not Ireland
    expect(Math.max(...lngs)).toBeLessThan(1.8); // East Anglia
    expect(Math.min(...lats)).toBeGreaterThan(49.8); // the Scillies
    expect(Math.max(...lats)).toBeLessThan(60.9); // Shetland
  });

  it('is rounded to 3 decimals and small enough to bundle', () => {
    expect(points.every(([lng = 0, lat = 0]) => Math.round(lng * 1000) / 1000 === lng && Math.round(lat * 1000) / 1000 === lat)).toBe(true);
    expect(JSON.stringify(outline).length).toBeLessThan(150_000);
  });

  it('refuses a country the atlas does not have', () => {
    expect(() => outlineOf(topology, 'Atlantis')).toThrow(/Atlantis/);
  });
});

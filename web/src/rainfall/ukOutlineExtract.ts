// Cuts the United Kingdom out of Natural Earth's countries (world-atlas
// TopoJSON) at build time, so the map ships a small outline of its own
// rather than the world, and needs no tile server.
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

export type Outline = Feature<MultiPolygon, { name: string }>;

/**
 * Natural Earth counts Rockall (13.7° W) as the United Kingdom's. It has no
 * rainfall, and it would stretch the map's bounds far into the Atlantic.
 */
const WEST_LIMIT = -11;

/**
 * The named country as one MultiPolygon, coordinates rounded to `decimals`
 * (3 is about 100 m, finer than a click at the map's highest zoom), without
 * islands lying wholly west of `westLimit`.
 */
export function outlineOf(topology: Topology, name = 'United Kingdom', decimals = 3, westLimit = WEST_LIMIT): Outline {
  const countries = topology.objects.countries as GeometryCollection<{ name: string }> | undefined;
  const geometry = countries?.geometries.find((candidate) => (candidate.properties as { name?: string } | undefined)?.name === name);
  if (!geometry) throw new Error(`no country named ${name} in the topology`);
  const shape = feature(topology, geometry) as Feature<Polygon | MultiPolygon>;
  const polygons: Position[][][] = shape.geometry.type === 'Polygon' ? [shape.geometry.coordinates] : shape.geometry.coordinates;
  const scale = 10 ** decimals;
  const roundPoint = ([lng = 0, lat = 0]: Position): Position => [Math.round(lng * scale) / scale, Math.round(lat * scale) / scale];
  return {
    type: 'Feature',
    properties: { name },
    geometry: {
      type: 'MultiPolygon',
      coordinates: polygons.filter((rings) => rings[0]?.some(([lng = 0]) => lng >= westLimit)).map((rings) => rings.map((ring) => ring.map(roundPoint))),
    },
  };
}

// The world's countries for the staff map, cut from Natural Earth 1:110m
// (world-atlas) at build time: the map stays offline, with no tile server.
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

export type WorldOutline = FeatureCollection<MultiPolygon, { name: string }>;

/** Every country of the topology as a MultiPolygon, coordinates rounded to `decimals` (2: about a kilometre). */
export function worldOf(topology: Topology, decimals = 2): WorldOutline {
  const countries = topology.objects.countries as GeometryCollection<{ name: string }> | undefined;
  if (!countries) throw new Error('no countries in the topology');
  const scale = 10 ** decimals;
  const round = ([lng = 0, lat = 0]: Position): Position => [Math.round(lng * scale) / scale, Math.round(lat * scale) / scale];
  return {
    type: 'FeatureCollection',
    features: countries.geometries.map((geometry) => {
      const shape = feature(topology, geometry) as Feature<Polygon | MultiPolygon | null>;
      const polygons: Position[][][] = !shape.geometry ? [] : shape.geometry.type === 'Polygon' ? [shape.geometry.coordinates] : shape.geometry.coordinates;
      return {
        type: 'Feature',
        properties: { name: (geometry.properties as { name?: string } | undefined)?.name ?? '' },
        geometry: { type: 'MultiPolygon', coordinates: polygons.map((rings) => rings.map((ring) => unwrap(ring).map(round))) },
      };
    }),
  };
}

/**
 * A ring that crosses the antimeridian (eastern Russia, Fiji) comes with
 * longitudes on both sides of ±180°; drawn as given it is a band across the
 * whole map. Its western part is moved by 360° so the ring is continuous.
 */
export function unwrap(ring: Position[]): Position[] {
  const lngs = ring.map(([lng = 0]) => lng);
  if (Math.max(...lngs) - Math.min(...lngs) <= 180) return ring;
  return ring.map(([lng = 0, lat = 0]) => [lng < 0 ? lng + 360 : lng, lat]);
}

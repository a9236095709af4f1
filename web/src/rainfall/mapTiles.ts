/**
 * Map tiles under the UK outline. None by default: the map must work on a
 * closed network, where the bundled outline is all there is. A deployment
 * with internet sets VITE_MAP_TILES at build time (a Leaflet URL template,
 * e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png) and, as the tile
 * service requires, VITE_MAP_ATTRIBUTION.
 */
export interface TileConfig {
  url: string;
  attribution: string;
}

export function tileConfig(env: Record<string, string | boolean | undefined> = import.meta.env): TileConfig | null {
  const url = typeof env.VITE_MAP_TILES === 'string' ? env.VITE_MAP_TILES.trim() : '';
  if (!url) return null;
  const attribution = typeof env.VITE_MAP_ATTRIBUTION === 'string' ? env.VITE_MAP_ATTRIBUTION : '';
  return { url, attribution };
}

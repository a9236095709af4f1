import outline from 'virtual:uk-outline';

/** The United Kingdom (Great Britain and Northern Ireland), Natural Earth 1:10m. */
export const UK_OUTLINE = outline;

/** Spec section 2: the map opens on the UK's middle and stays between zoom 7 and 12. */
export const UK_CENTRE: [number, number] = [53.5, -1.5];
export const MIN_ZOOM = 7;
export const MAX_ZOOM = 12;

/** South-west and north-east corners of the outline, in [lat, lng]. */
export function outlineBounds(): [[number, number], [number, number]] {
  let south = 90;
  let west = 180;
  let north = -90;
  let east = -180;
  for (const polygon of UK_OUTLINE.geometry.coordinates) {
    for (const [lng = 0, lat = 0] of polygon[0] ?? []) {
      south = Math.min(south, lat);
      north = Math.max(north, lat);
      west = Math.min(west, lng);
      east = Math.max(east, lng);
    }
  }
  return [
    [south, west],
    [north, east],
  ];
}

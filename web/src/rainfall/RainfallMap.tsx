import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import markerIcon from 'leaflet/dist/images/marker-icon.png';
import markerIcon2x from 'leaflet/dist/images/marker-icon-2x.png';
import markerShadow from 'leaflet/dist/images/marker-shadow.png';
import { useEffect, useRef } from 'react';
import gazetteer from 'virtual:uk-gazetteer';
import { visibleLabels } from './gazetteer';
import { tileConfig } from './mapTiles';
import type { LatLng } from './types';
import { MAX_ZOOM, MIN_ZOOM, outlineBounds, UK_CENTRE, UK_OUTLINE } from './ukOutline';

// Leaflet looks for its marker images next to its CSS on a CDN by default; these are bundled.
const MARKER = L.icon({
  iconUrl: markerIcon,
  iconRetinaUrl: markerIcon2x,
  shadowUrl: markerShadow,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  shadowSize: [41, 41],
});

interface RainfallMapProps {
  point: LatLng | null;
  onPick: (point: LatLng) => void;
  label: string;
  /** A place chosen in the search: the map moves there. */
  focus?: LatLng | null;
}

/** The zoom a searched place is shown at. */
const FOCUS_ZOOM = 11;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The Leaflet map: the UK outline (and tiles, when configured), the chosen place, clicks handed on. */
export function RainfallMap({ point, onPick, label, focus }: RainfallMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.Marker | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    if (!box.current) return;
    const [south, north] = outlineBounds();
    const bounds = L.latLngBounds(south, north).pad(0.15);
    const created = L.map(box.current, {
      center: UK_CENTRE,
      zoom: MIN_ZOOM,
      minZoom: MIN_ZOOM,
      maxZoom: MAX_ZOOM,
      maxBounds: bounds,
      maxBoundsViscosity: 1,
      attributionControl: false,
    });
    const tiles = tileConfig();
    if (tiles) {
      L.tileLayer(tiles.url, { minZoom: MIN_ZOOM, maxZoom: MAX_ZOOM, attribution: tiles.attribution }).addTo(created);
      L.control.attribution({ prefix: false }).addTo(created);
    }
    L.geoJSON(UK_OUTLINE, {
      interactive: false,
      style: { color: '#2f5d3a', weight: 1, fillColor: '#dfe9d3', fillOpacity: tiles ? 0.15 : 1 },
    }).addTo(created);
    created.on('click', (event: L.LeafletMouseEvent) => pick.current({ lat: event.latlng.lat, lng: event.latlng.lng }));
    // Town names from the bundled gazetteer, thinned by zoom so that none overlap.
    const labels = L.layerGroup().addTo(created);
    const drawLabels = () => {
      labels.clearLayers();
      const size = created.getSize();
      const project = (lat: number, lng: number): [number, number] => {
        const p = created.latLngToContainerPoint([lat, lng]);
        return [p.x, p.y];
      };
      for (const town of visibleLabels(gazetteer, created.getZoom(), project, size.x, size.y)) {
        L.marker([town.lat, town.lng], {
          interactive: false,
          keyboard: false,
          icon: L.divIcon({ className: 'rainfall-map__town', html: `<span>${escapeHtml(town.name)}</span>`, iconSize: undefined }),
        }).addTo(labels);
      }
    };
    created.on('zoomend moveend resize', drawLabels);
    created.whenReady(drawLabels);
    map.current = created;
    return () => {
      created.remove();
      map.current = null;
      marker.current = null;
    };
  }, []);

  useEffect(() => {
    const current = map.current;
    if (!current) return;
    if (!point) {
      marker.current?.remove();
      marker.current = null;
      return;
    }
    if (marker.current) marker.current.setLatLng(point);
    else marker.current = L.marker(point, { icon: MARKER, keyboard: false }).addTo(current);
  }, [point]);

  useEffect(() => {
    // Without animation: an animated zoom interrupted by the bounds' pan
    // could end on a move whose labels were drawn for a view in between
    // (seen as a place's district labels missing after a search).
    if (focus) map.current?.setView(focus, FOCUS_ZOOM, { animate: false });
  }, [focus]);

  return <div ref={box} className="rainfall-map__map" role="application" aria-label={label} data-testid="rainfall-map" />;
}

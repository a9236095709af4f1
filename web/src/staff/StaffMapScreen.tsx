import { useQuery } from '@tanstack/react-query';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import world from 'virtual:world-outline';
import { useServices } from '../app/ServicesContext';
import { Notice } from '../components/Notice';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { CENTROIDS } from './countryCentroids';
import { errorText, useFormats } from './format';
import type { MapCountry, MapPlace, StaffMap } from './staffApi';

/** Europe, where most users are; the world is a zoom away. */
const EUROPE: [[number, number], [number, number]] = [
  [34, -12],
  [66, 36],
];

/** A circle's radius in pixels for a count: its area grows with the count. */
export function radiusFor(count: number, largest: number, max = 28, min = 5): number {
  if (count <= 0 || largest <= 0) return 0;
  return Math.max(min, max * Math.sqrt(count / largest));
}

/**
 * The staff map: users (blue) and calculated projects (green) by country,
 * and, for UK runs whose rainfall came from the rainfall map, the places
 * (orange). The same figures are listed below the map.
 */
export function StaffMapScreen() {
  const { t } = useTranslation();
  const { staff } = useServices();
  const formats = useFormats();
  useDocumentTitle(t('staff.map.title'));
  const map = useQuery({ queryKey: ['staff', 'map'], queryFn: staff.map });
  const countries = map.data?.countries ?? [];
  const places = map.data?.places ?? [];

  return (
    <>
      <section className="card staff-map" aria-labelledby="staff-map-title">
        <h1 id="staff-map-title">{t('staff.map.title')}</h1>
        <p className="form__intro">{t('staff.map.intro')}</p>
        <ul className="staff-map__legend">
          <li className="staff-map__key staff-map__key--users">{t('staff.map.users')}</li>
          <li className="staff-map__key staff-map__key--projects">{t('staff.map.projects')}</li>
          <li className="staff-map__key staff-map__key--places">{t('staff.map.places')}</li>
        </ul>
        {map.isError && <Notice tone="error">{errorText(t, map.error)}</Notice>}
        <WorldMap data={map.data ?? null} label={t('staff.map.title')} describe={(c) => t('staff.map.tip', { name: c.name, users: c.users, projects: c.projects })} describePlace={(p) => t('staff.map.placeTip', { town: p.town || `${p.lat}, ${p.lng}`, runs: p.runs, projects: p.projects })} />
      </section>
      <section className="card" aria-labelledby="staff-map-table">
        <h2 id="staff-map-table">{t('staff.map.byCountry')}</h2>
        {countries.length === 0 ? (
          <p>{map.isPending ? t('app.loading') : t('staff.map.none')}</p>
        ) : (
          <table className="staff-table">
            <thead>
              <tr>
                <th scope="col">{t('staff.users.country')}</th>
                <th scope="col">{t('staff.map.users')}</th>
                <th scope="col">{t('staff.map.projects')}</th>
              </tr>
            </thead>
            <tbody>
              {[...countries]
                .sort((a, b) => b.users + b.projects - (a.users + a.projects) || a.name.localeCompare(b.name))
                .map((c) => (
                  <tr key={c.country}>
                    <th scope="row">
                      {c.name} ({c.country})
                    </th>
                    <td>{formats.integer.format(c.users)}</td>
                    <td>{formats.integer.format(c.projects)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        )}
        {places.length > 0 && (
          <>
            <h2>{t('staff.map.placesTitle')}</h2>
            <table className="staff-table">
              <thead>
                <tr>
                  <th scope="col">{t('staff.map.place')}</th>
                  <th scope="col">{t('staff.map.runs')}</th>
                  <th scope="col">{t('staff.map.projects')}</th>
                </tr>
              </thead>
              <tbody>
                {places.map((p) => (
                  <tr key={`${p.lat},${p.lng}`}>
                    <th scope="row">{p.town ? `${p.town} (${formats.number.format(p.lat)}, ${formats.number.format(p.lng)})` : `${formats.number.format(p.lat)}, ${formats.number.format(p.lng)}`}</th>
                    <td>{formats.integer.format(p.runs)}</td>
                    <td>{formats.integer.format(p.projects)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>
    </>
  );
}

interface WorldMapProps {
  data: StaffMap | null;
  label: string;
  describe: (c: MapCountry) => string;
  describePlace: (p: MapPlace) => string;
}

function WorldMap({ data, label, describe, describePlace }: WorldMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const marks = useRef<L.LayerGroup | null>(null);
  const texts = useRef({ describe, describePlace });
  texts.current = { describe, describePlace };

  useEffect(() => {
    if (!box.current) return;
    const created = L.map(box.current, { minZoom: 1, maxZoom: 9, worldCopyJump: true, attributionControl: false });
    created.fitBounds(EUROPE);
    L.geoJSON(world, { interactive: false, style: { color: '#9aa9b8', weight: 0.6, fillColor: '#e9eef2', fillOpacity: 1 } }).addTo(created);
    marks.current = L.layerGroup().addTo(created);
    map.current = created;
    return () => {
      created.remove();
      map.current = null;
      marks.current = null;
    };
  }, []);

  useEffect(() => {
    const layer = marks.current;
    if (!layer) return;
    layer.clearLayers();
    const countries = data?.countries ?? [];
    const largest = Math.max(0, ...countries.map((c) => Math.max(c.users, c.projects)));
    for (const c of countries) {
      const at = CENTROIDS[c.country];
      if (!at) continue;
      const tip = texts.current.describe(c);
      if (c.users > 0)
        L.circleMarker(at, { radius: radiusFor(c.users, largest), color: '#0b5fa5', weight: 1.5, fillColor: '#0b5fa5', fillOpacity: 0.25 })
          .bindTooltip(tip)
          .addTo(layer);
      if (c.projects > 0)
        L.circleMarker(at, { radius: radiusFor(c.projects, largest), color: '#1f7a3d', weight: 1.5, fillColor: '#1f7a3d', fillOpacity: 0.45 })
          .bindTooltip(tip)
          .addTo(layer);
    }
    const places = data?.places ?? [];
    const most = Math.max(0, ...places.map((p) => p.runs));
    for (const p of places) {
      L.circleMarker([p.lat, p.lng], { radius: radiusFor(p.runs, most, 10, 4), color: '#b35c00', weight: 1, fillColor: '#f08c00', fillOpacity: 0.8 })
        .bindTooltip(texts.current.describePlace(p))
        .addTo(layer);
    }
  }, [data]);

  return <div ref={box} className="staff-map__map" role="img" aria-label={label} data-testid="staff-map" />;
}

import type { GazetteerData } from './gazetteerData';

/** A search hit: a town, or a postcode district. */
export interface PlaceHit {
  kind: 'place' | 'district';
  /** The town's name, or the district's code. */
  name: string;
  /** Country and district for a town; the nearest town for a district. */
  country: string;
  district: string;
  near: string;
  lat: number;
  lng: number;
}

export interface SearchAnswer {
  hits: PlaceHit[];
  /** The query is a Northern Ireland postcode, which the gazetteer leaves out. */
  northernIrelandPostcode: boolean;
}

// A postcode district (outward code), possibly followed by the inward code: S1, SW1A, EH12 5AB.
const POSTCODE = /^([A-Z]{1,2}\d[A-Z\d]?)(?:\s*\d[A-Z]{2})?$/;

/** Lower case without accents or punctuation, for matching names as typed. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * Towns and postcode districts matching what the designer typed: a
 * postcode district exactly first (then the districts it begins), towns
 * whose name begins with the text before towns with a word that does, the
 * larger first.
 */
export function searchPlaces(data: GazetteerData, query: string, limit = 8): SearchAnswer {
  const text = query.trim();
  const hits: PlaceHit[] = [];
  if (!text) return { hits, northernIrelandPostcode: false };
  const upper = text.toUpperCase();
  const postcode = POSTCODE.exec(upper);
  if (postcode?.[1]) {
    const outward = postcode[1];
    const exact = data.districts.filter(([code]) => code === outward);
    const longer = postcode[0] === outward ? data.districts.filter(([code]) => code !== outward && code.startsWith(outward) && /\d/.test(code.slice(outward.length - 1))) : [];
    for (const [code, lat, lng, near] of [...exact, ...longer]) {
      hits.push({ kind: 'district', name: code, country: '', district: code, near, lat, lng });
    }
  }
  const northernIrelandPostcode = hits.length === 0 && /^BT\d/.test(upper);
  const folded = fold(text);
  if (folded.length >= 2 || hits.length === 0) {
    const starts: PlaceHit[] = [];
    const words: PlaceHit[] = [];
    // The places are sorted by population, largest first.
    for (const [name, lat, lng, , country, district] of data.places) {
      const key = fold(name);
      const hit: PlaceHit = { kind: 'place', name, country, district, near: '', lat, lng };
      if (key.startsWith(folded)) starts.push(hit);
      else if (key.includes(` ${folded}`)) words.push(hit);
      if (starts.length >= limit) break;
    }
    hits.push(...starts, ...words);
  }
  return { hits: hits.slice(0, limit), northernIrelandPostcode };
}

/** A town label placed on the map. */
export interface Label {
  name: string;
  lat: number;
  lng: number;
}

/** Towns of at least this many people are labelled from each zoom on (the map's zooms are 7 to 12). */
const LABEL_POPULATION: Record<number, number> = { 7: 150000, 8: 60000, 9: 20000, 10: 8000, 11: 3000, 12: 1000 };

const CHAR_PX = 6.5;
const LABEL_HEIGHT_PX = 16;

/**
 * The towns to label at a zoom: those large enough for it, inside the view,
 * the larger first, each dropped if its label would overlap one already
 * placed, so the map never clutters.
 */
export function visibleLabels(data: GazetteerData, zoom: number, project: (lat: number, lng: number) => [number, number], width: number, height: number): Label[] {
  const level = Math.max(7, Math.min(12, Math.round(zoom)));
  const minimum = LABEL_POPULATION[level] ?? 1000;
  const placed: [number, number, number, number][] = [];
  const out: Label[] = [];
  for (const [name, lat, lng, population] of data.places) {
    if (population < minimum) break;
    const [x, y] = project(lat, lng);
    // The label stands to the right of its dot (styles.css .rainfall-map__town).
    const w = name.length * CHAR_PX + 8;
    const box: [number, number, number, number] = [x - 3, y - LABEL_HEIGHT_PX / 2, x + w, y + LABEL_HEIGHT_PX / 2];
    if (box[2] < 0 || box[0] > width || box[3] < 0 || box[1] > height) continue;
    if (placed.some(([x0, y0, x1, y1]) => box[0] < x1 && box[2] > x0 && box[1] < y1 && box[3] > y0)) continue;
    placed.push(box);
    out.push({ name, lat, lng });
  }
  return out;
}

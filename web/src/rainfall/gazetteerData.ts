// Reads the gazetteer's CSV files (domain/rainfall/data/uk-places.csv and
// uk-postcode-districts.csv; see GAZETTEER.md there) into the compact form
// the map's chunk carries. Run by the draindesign-uk-gazetteer plugin of
// vite.config.ts at build time, and by the tests.

/** A place: name, lat, lng, population, country, nearest postcode district ('' in Northern Ireland). */
export type PlaceRow = [string, number, number, number, string, string];
/** A postcode district: code, lat, lng, nearest sizeable town. */
export type DistrictRow = [string, number, number, string];

export interface GazetteerData {
  places: PlaceRow[];
  districts: DistrictRow[];
}

/** One CSV line, with double-quoted fields ("Basford, Stoke-on-Trent"). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

function rows(text: string, header: string): string[][] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines[0] !== header) throw new Error(`gazetteer: header ${lines[0]}, want ${header}`);
  return lines.slice(1).map(csvFields);
}

/** Towns of at least this many people name a postcode district in the search. */
const DISTRICT_TOWN_POPULATION = 5000;

export function parseGazetteer(placesCsv: string, districtsCsv: string): GazetteerData {
  const places: PlaceRow[] = rows(placesCsv, 'name,lat,lon,population,country,district,geonameid').map(([name = '', lat, lon, population, country = '', district = '']) => [
    name,
    Number(lat),
    Number(lon),
    Number(population),
    country,
    district,
  ]);
  const towns = places.filter((place) => place[3] >= DISTRICT_TOWN_POPULATION);
  const districts: DistrictRow[] = rows(districtsCsv, 'district,lat,lon,postcodes').map(([code = '', lat, lon]) => {
    const la = Number(lat);
    const lo = Number(lon);
    return [code, la, lo, nearestName(towns, la, lo)];
  });
  for (const [name, lat, lng] of places) {
    if (!name || !Number.isFinite(lat) || !Number.isFinite(lng)) throw new Error(`gazetteer: bad place ${name}`);
  }
  return { places, districts };
}

function nearestName(places: PlaceRow[], lat: number, lng: number): string {
  const k = Math.cos((lat * Math.PI) / 180);
  let best = '';
  let bestD = Infinity;
  for (const [name, la, lo] of places) {
    const d = (la - lat) ** 2 + ((lo - lng) * k) ** 2;
    if (d < bestD) {
      bestD = d;
      best = name;
    }
  }
  return best;
}

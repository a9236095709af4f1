import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchPlaces, visibleLabels } from './gazetteer';
import { csvFields, parseGazetteer } from './gazetteerData';

const dir = resolve(__dirname, '../../../domain/rainfall/data');
const data = parseGazetteer(readFileSync(resolve(dir, 'uk-places.csv'), 'utf8'), readFileSync(resolve(dir, 'uk-postcode-districts.csv'), 'utf8'));

describe('the gazetteer', () => {
  it('reads quoted CSV fields', () => {
    expect(csvFields('"Basford, Stoke-on-Trent",53.0,-2.2')).toEqual(['Basford, Stoke-on-Trent', '53.0', '-2.2']);
  });

  it('holds the UK towns and postcode districts', () => {
    expect(data.places.length).toBeGreaterThan(4000);
    expect(data.districts.length).toBeGreaterThan(2800);
    for (const [name, lat, lng] of [...data.places, ...data.districts]) {
      expect(lat > 49.8 && lat < 60.9 && lng > -8.7 && lng < 1.8, `${name} ${lat} ${lng}`).toBe(true);
    }
  });

  it('finds a town by name, the largest first, whatever the case and accents', () => {
    const [first] = searchPlaces(data, 'sheff').hits;
    expect(first).toMatchObject({ kind: 'place', name: 'Sheffield', country: 'England', district: 'S1' });
    expect(first!.lat).toBeCloseTo(53.38, 1);
    const newports = searchPlaces(data, 'newport').hits;
    expect(newports[0]).toMatchObject({ name: 'Newport', country: 'Wales' });
    expect(newports.filter((hit) => hit.name === 'Newport').length).toBeGreaterThan(2);
    expect(searchPlaces(data, 'BELFAST').hits[0]).toMatchObject({ name: 'Belfast', country: 'Northern Ireland' });
  });

  it('finds a postcode district, exactly first, also from a full postcode', () => {
    const s1 = searchPlaces(data, 's1').hits;
    expect(s1[0]).toMatchObject({ kind: 'district', name: 'S1', near: 'Sheffield' });
    expect(s1.slice(1).every((hit) => hit.kind === 'place' || /^S1\d$/.test(hit.name))).toBe(true);
    expect(searchPlaces(data, 'SW1A 2AA').hits[0]).toMatchObject({ kind: 'district', name: 'SW1A', near: 'City of Westminster' });
    expect(searchPlaces(data, 'eh1').hits[0]).toMatchObject({ kind: 'district', name: 'EH1', near: 'Edinburgh' });
  });

  it('says that Northern Ireland postcodes are left out', () => {
    const answer = searchPlaces(data, 'BT7');
    expect(answer.northernIrelandPostcode).toBe(true);
    expect(answer.hits.filter((hit) => hit.kind === 'district')).toEqual([]);
    expect(searchPlaces(data, 'S1').northernIrelandPostcode).toBe(false);
  });

  it('finds nothing for nonsense', () => {
    expect(searchPlaces(data, 'qqqzzz').hits).toEqual([]);
    expect(searchPlaces(data, '  ').hits).toEqual([]);
  });

  it('labels more towns as the map zooms in, never overlapping', () => {
    // An equirectangular stand-in for the map's projection, 2^zoom px per degree-ish.
    const view = (zoom: number) => (lat: number, lng: number): [number, number] => {
      const scale = 2 ** zoom / 1.4;
      return [(lng + 8) * scale, (61 - lat) * scale * 1.6];
    };
    const at7 = visibleLabels(data, 7, view(7), 4000, 8000);
    const at9 = visibleLabels(data, 9, view(9), 20000, 40000);
    expect(at7.map((label) => label.name)).toContain('London');
    expect(at7.length).toBeLessThan(at9.length);
    expect(at7.length).toBeLessThan(60);
    const boxes = at9.map(({ name, lat, lng }) => {
      const [x, y] = view(9)(lat, lng);
      const w = name.length * 6.5 + 8;
      return [x - 3, y - 8, x + w, y + 8] as const;
    });
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => expect(a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1]).toBe(false)));
    // Only what is in view.
    expect(visibleLabels(data, 12, () => [-500, -500], 800, 600)).toEqual([]);
  });
});

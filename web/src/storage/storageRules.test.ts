import { describe, expect, it } from 'vitest';
import { hicap } from '../design/testSystems';
import { capControlled, draftFrom, freeDischarge, rateForDisplay, rateFromDisplay, storageBody } from './storageRules';

const draft = draftFrom({ selectedSystem: hicap, channel_length_m: 50, drainage_area_m2: 300, permeability: 0.9, rainfall: { rainfall_mm_per_hr: 50 } });

describe('controlled discharge rules', () => {
  it('takes the spec’s rainfall defaults for a run without map rainfall, as custom rainfall', () => {
    expect(draft.rainfall).toMatchObject({ rainfall_mm_per_hr: 50, storm_duration: 30, return_period: 30, climate_change_factor: 0 });
    expect(draft.custom).toBe(true);
  });

  it('works out the free discharge as area × intensity / 3600 with the runoff coefficient, to 0.1 l/s', () => {
    // 300 × 50 / 3600 × 0.9 = 3.75
    expect(freeDischarge(draft)).toBe(3.8);
    expect(freeDischarge({ ...draft, catchment_area_m2: null })).toBeNull();
    expect(capControlled(3.77, draft)).toBe(3.8);
    expect(capControlled(-1, draft)).toBe(0);
  });

  it('sends only the fields the strict storage call reads', () => {
    const body = storageBody(
      { ...draft, controlled_outflow: 2, rainfall: { ...draft.rainfall, town: 'Leeds', latlng: { lat: 1, lng: 2 }, intensities: [[5, 1]] } },
      { selectedSystem: hicap, loading: 'D400', ground_slope: 0.5, minimumSize: 150 },
    );
    expect(Object.keys(body).sort()).toEqual(
      ['catchment_area_m2', 'channel_group', 'channel_length_m', 'controlled_outflow', 'ground_slope', 'loading', 'minimumSize', 'permeability', 'rainfall'].sort(),
    );
    expect(Object.keys(body.rainfall as object).sort()).toEqual(
      ['M5', 'climate_change_factor', 'fifteenMinuteRate', 'fiveMinuteRate', 'r', 'rainfall_mm_per_hr', 'return_period', 'sixtyMinuteRate', 'storm_duration'].sort(),
    );
  });

  it('converts the rates between the project’s unit and mm/h, leaving the duration in minutes', () => {
    expect(rateFromDisplay('fiveMinuteRate', 0.0278, 'l/s/m2')).toBeCloseTo(100, 6);
    expect(rateFromDisplay('fiveMinuteRate', 278, 'l/(s*ha)')).toBeCloseTo(100, 6);
    expect(rateFromDisplay('storm_duration', 45, 'l/(s*ha)')).toBe(45);
    expect(rateForDisplay('sixtyMinuteRate', 31.252, 'l/(s*ha)')).toBe(86.881);
    expect(rateForDisplay('storm_duration', 30, 'l/s/m2')).toBe(30);
    expect(rateFromDisplay('fiveMinuteRate', null, 'mm/h')).toBeNull();
  });
});

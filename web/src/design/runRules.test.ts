import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyEdit,
  calculateBlockers,
  calculationBody,
  effectiveInputs,
  loadingLabel,
  maxSlope,
  outOfRunItems,
  readyForFirstCalculation,
  slopeRatio,
  standardSystems,
} from './runRules';
import { allSystems, concrete, gully450, hicap, poly100, steel, super_ } from './testSystems';
import type { RunInputs } from './types';

const designed: RunInputs = {
  selectedSystem: poly100,
  channel_group: 'poly-100',
  loading: 'C250',
  grating: 'poly-100-slot-iron',
  channel_length_m: 20,
  drainage_area_m2: 144,
  catchment_depth_m: 3.6,
};

describe('defaults', () => {
  it('fill in what a fresh run has not set, with the project default rainfall', () => {
    const run = effectiveInputs({ ground_slope: 1.5 }, 75);
    expect(run.calculation_method).toBe('GVF');
    expect(run.catchmentShape).toBe('uniform');
    expect(run.permeability).toBe(1);
    expect(run.ground_slope).toBe(1.5);
    expect(run.rainfall.rainfall_mm_per_hr).toBe(75);
    expect(effectiveInputs({}).rainfall.rainfall_mm_per_hr).toBe(50);
  });
});

describe('choosing a system', () => {
  it('keeps an offered loading, or takes the highest class', () => {
    expect(applyEdit({ loading: 'B125' }, 'selectedSystem', poly100).changes.loading).toBe('B125');
    expect(applyEdit({ loading: 'F900' }, 'selectedSystem', poly100).changes.loading).toBe('C250');
    expect(applyEdit({}, 'selectedSystem', super_).changes.loading).toBe('F900');
  });

  it('picks a grating offered for the loading', () => {
    expect(applyEdit({}, 'selectedSystem', poly100).changes.grating).toBe('poly-100-slot-iron');
    expect(applyEdit({ loading: 'A15' }, 'selectedSystem', poly100).changes.grating).toBe('poly-100-slot-galv');
    expect(applyEdit({}, 'selectedSystem', hicap).changes.grating).toBe('');
  });

  it('forces GVF except on the high-capacity system, which is stepped', () => {
    expect(applyEdit({ calculation_method: 'HRW' }, 'selectedSystem', poly100).changes.calculation_method).toBe('GVF');
    const chosen = applyEdit({ calculation_method: 'HRW' }, 'selectedSystem', hicap).changes;
    expect(chosen.calculation_method).toBeUndefined();
    expect(chosen.stepped).toBe(true);
  });

  it('turns stepping off with a warning on a system that cannot step', () => {
    const outcome = applyEdit({ stepped: true }, 'selectedSystem', steel);
    expect(outcome.changes.stepped).toBe(false);
    expect(outcome.warning).toEqual({ kind: 'steppedNotAllowed', system: { slug: 'steel', name: 'Stainless Steel Channel' }, material: 'steelOrConcrete' });
  });

  it('warns of theoretical stepping on the polymer family', () => {
    expect(applyEdit({ stepped: true }, 'selectedSystem', poly100).warning).toEqual({ kind: 'theoreticalStepping', system: { slug: 'poly-100', name: 'Polymer 100' } });
    expect(applyEdit({ stepped: true }, 'selectedSystem', super_).warning).toBeNull();
  });

  it('makes a point product uniform, flat and length-free, with the smallest pipe', () => {
    const { changes } = applyEdit({ channel_length_m: 20, ground_slope: 1, pipe_diameter_mm: 110 }, 'selectedSystem', gully450);
    expect(changes).toMatchObject({ catchmentShape: 'uniform', channel_length_m: 0, ground_slope: 0, pipe_diameter_mm: 160, loading: '' });
  });

  it('resets the pipe when leaving a point product, sending nulls for emptied fields', () => {
    const { changes } = applyEdit({ selectedSystem: gully450, pipe_diameter_mm: 200, has_body_extension: true }, 'selectedSystem', poly100);
    expect(changes.pipe_diameter_mm).toBeNull();
    expect(changes.has_body_extension).toBe(false);
  });

  it('keeps a minimum size the system offers, else its smallest', () => {
    expect(applyEdit({ minimumSize: 300 }, 'selectedSystem', super_).changes.minimumSize).toBe(300);
    expect(applyEdit({ minimumSize: 300 }, 'selectedSystem', hicap).changes.minimumSize).toBe(150);
  });

  it('writes EN 1433 classes with a space and LCN classes as they are', () => {
    expect(loadingLabel('C250')).toBe('C 250');
    expect(loadingLabel('F900')).toBe('F 900');
    expect(loadingLabel('LCN50')).toBe('LCN50');
  });

  it('lists no concrete channel in standard mode', () => {
    expect(standardSystems(allSystems)).not.toContain(concrete);
    expect(standardSystems(allSystems)).toContain(gully450);
  });
});

describe('length, depth and area', () => {
  it('keeps the area and derives the depth when the length changes', () => {
    expect(applyEdit({ drainage_area_m2: 144 }, 'channel_length_m', 20).changes).toEqual({ channel_length_m: 20, catchment_depth_m: 3.6 });
  });

  it('derives the depth from the area and the area from the depth', () => {
    expect(applyEdit({ channel_length_m: 20 }, 'drainage_area_m2', 100).changes.catchment_depth_m).toBe(2.5);
    expect(applyEdit({ channel_length_m: 20 }, 'catchment_depth_m', 1.25).changes.drainage_area_m2).toBe(50);
  });

  it('warns above 500 m and refuses beyond the method limit', () => {
    expect(applyEdit({}, 'channel_length_m', 500).warning).toBeNull();
    expect(applyEdit({}, 'channel_length_m', 620.5).warning).toEqual({ kind: 'lengthOver500', excess: 120.5 });
    expect(applyEdit({}, 'channel_length_m', 3100).warning).toEqual({ kind: 'lengthOverLimit', method: 'GVF', limit: 3000, excess: 100 });
    expect(applyEdit({ selectedSystem: hicap, calculation_method: 'HRW' }, 'channel_length_m', 510).warning).toEqual({
      kind: 'lengthOverLimit',
      method: 'HRW',
      limit: 500,
      excess: 10,
    });
  });

  it('says how far an area is over the limit', () => {
    expect(applyEdit({}, 'drainage_area_m2', 99999).warning).toBeNull();
    expect(applyEdit({}, 'drainage_area_m2', 100050).warning).toEqual({ kind: 'areaTooLarge', excess: 51 });
  });
});

describe('slope', () => {
  it('caps the slope at the method maximum with a warning', () => {
    expect(applyEdit({}, 'ground_slope', 12)).toEqual({
      changes: { ground_slope: 9.9 },
      warning: { kind: 'slopeTooSteep', method: 'GVF', limit: 9.9 },
    });
    expect(applyEdit({ selectedSystem: hicap, calculation_method: 'HRW' }, 'ground_slope', 4).changes.ground_slope).toBe(3.3);
    expect(applyEdit({}, 'ground_slope', 2.5)).toEqual({ changes: { ground_slope: 2.5 }, warning: null });
  });

  it('states the cap in the dialog as the same slope the field holds', () => {
    // The warning's limit is the value the field is capped at; its "1 in N"
    // is 100 / slope, so 9.9 % reads 1 in 10.1 (a round "1 in 10" is 10 %,
    // steeper than the cap).
    expect(applyEdit({}, 'ground_slope', 12).warning).toMatchObject({ limit: maxSlope('GVF') });
    expect(slopeRatio(maxSlope('GVF'))).toBe(10.1);
    expect(slopeRatio(maxSlope('HRW'))).toBe(30.3);
    expect(slopeRatio(10)).toBe(10);
  });

  it('re-checks the slope when the method changes', () => {
    const outcome = applyEdit({ selectedSystem: hicap, ground_slope: 5 }, 'calculation_method', 'HRW');
    expect(outcome.changes).toEqual({ calculation_method: 'HRW', ground_slope: 3.3 });
    expect(outcome.warning).toEqual({ kind: 'slopeTooSteep', method: 'HRW', limit: 3.3 });
  });

  it('offers HRW only on the high-capacity system', () => {
    expect(applyEdit({ selectedSystem: poly100 }, 'calculation_method', 'HRW').changes.calculation_method).toBe('GVF');
  });

  it('computes the slope from elevations, to 2 decimals', () => {
    const outcome = applyEdit({ channel_length_m: 30, slopeSetting: 'elevation', upperElevation: 10.5 }, 'lowerElevation', 10.2);
    expect(outcome.changes).toEqual({ lowerElevation: 10.2, ground_slope: 1 });
    expect(outcome.warning).toBeNull();
  });

  it('warns of an uphill run and of too steep elevations', () => {
    expect(applyEdit({ channel_length_m: 30, upperElevation: 10 }, 'lowerElevation', 10.3).warning).toEqual({ kind: 'uphill' });
    expect(applyEdit({ channel_length_m: 10, upperElevation: 12 }, 'lowerElevation', 10).warning).toEqual({
      kind: 'elevationTooSteep',
      method: 'GVF',
      limit: 9.9,
    });
  });
});

describe('other fields', () => {
  it('sets permeability from a surface, and custom from a value', () => {
    expect(applyEdit({}, 'permeabilitySurface', 'asphalt').changes).toEqual({ permeabilitySurface: 'asphalt', permeability: 0.9 });
    expect(applyEdit({}, 'permeability', 1.4).changes).toEqual({ permeability: 1, permeabilitySurface: 'custom' });
  });

  it('refuses stepping where the system cannot step', () => {
    expect(applyEdit({ selectedSystem: steel }, 'stepped', true).changes.stepped).toBe(false);
    expect(applyEdit({ selectedSystem: super_ }, 'stepped', true)).toEqual({ changes: { stepped: true }, warning: null });
  });

  it('drops the extension hat where the pipe cannot take one', () => {
    expect(applyEdit({ selectedSystem: gully450, pipe_diameter_mm: 200, has_body_extension: true }, 'pipe_diameter_mm', 250).changes).toEqual({
      pipe_diameter_mm: 250,
      has_body_extension: false,
    });
    expect(applyEdit({ selectedSystem: gully450, pipe_diameter_mm: 250 }, 'has_body_extension', true).changes.has_body_extension).toBe(false);
  });

  it('stores rainfall in mm/h, never below 0', () => {
    expect(applyEdit({}, 'rainfall_mm_per_hr', -3).changes.rainfall).toEqual({ rainfall_mm_per_hr: 0 });
  });

  it('makes a typed intensity the designer’s own, dropping what the map said of another one', () => {
    const fromMap = { rainfall_mm_per_hr: 49.338, town: 'Leeds', M5: 19.5, r: 0.36, fiveMinuteRate: 130, storm_duration: 30, return_period: 30, climate_change_factor: 0 };
    expect(applyEdit({ rainfall: fromMap }, 'rainfall_mm_per_hr', 60).changes.rainfall).toEqual({
      rainfall_mm_per_hr: 60,
      storm_duration: 30,
      return_period: 30,
      climate_change_factor: 0,
    });
    expect(applyEdit({ rainfall: fromMap }, 'rainfall_mm_per_hr', 49.338).changes.rainfall).toEqual(fromMap);
  });

  it('refuses stepped with controlled discharge, and leaving the high-capacity system drops it', () => {
    const controlled = { selectedSystem: hicap, controlled_outflow: 2, stepped: false, controlled_discharge: { flooded: false } };
    expect(applyEdit(controlled, 'stepped', true).changes.stepped).toBe(false);
    expect(applyEdit(controlled, 'selectedSystem', poly100).changes).toMatchObject({ controlled_outflow: 0, controlled_discharge: null, controlled_discharge_details: null });
    expect(applyEdit({ ...controlled, selectedSystem: poly100 }, 'selectedSystem', hicap).changes.stepped).toBe(false);
  });
});

describe('calculate', () => {
  it('is ready for a first calculation with a system, a length and an area', () => {
    expect(readyForFirstCalculation({})).toBe(false);
    expect(readyForFirstCalculation(designed)).toBe(true);
    expect(readyForFirstCalculation({ ...designed, channel_length_m: 0 })).toBe(false);
    expect(readyForFirstCalculation({ selectedSystem: gully450, drainage_area_m2: 50 })).toBe(true);
  });

  it('decides readiness as the server does, case for case', () => {
    const table = JSON.parse(readFileSync(join(import.meta.dirname, '../../../domain/project/testdata/readiness.json'), 'utf8')) as {
      cases: { name: string; inputs: RunInputs; ready: boolean }[];
    };
    expect(table.cases.length).toBeGreaterThanOrEqual(10);
    for (const c of table.cases) expect([c.name, readyForFirstCalculation(c.inputs)]).toEqual([c.name, c.ready]);
  });

  it('lists what keeps Calculate disabled', () => {
    expect(calculateBlockers({})).toEqual(['noSystem']);
    expect(calculateBlockers(designed)).toEqual([]);
    expect(calculateBlockers({ ...designed, grating: '' })).toEqual(['noGrating']);
    expect(calculateBlockers({ ...designed, loading: '' })).toEqual(['noLoading']);
    expect(calculateBlockers({ ...designed, rainfall: { rainfall_mm_per_hr: 0 } })).toEqual(['noRainfall']);
    expect(calculateBlockers({ ...designed, channel_length_m: 3001 })).toEqual(['lengthOverLimit']);
    expect(calculateBlockers({ ...designed, ground_slope: -1 })).toEqual(['slopeNegative']);
    expect(calculateBlockers({ ...designed, ground_slope: 10 })).toEqual(['slopeTooSteep']);
    expect(calculateBlockers({ ...designed, drainage_area_m2: 100000 })).toEqual(['areaTooLarge']);
    expect(calculateBlockers({ ...designed, drainage_area_m2: 0 })).toEqual(['noArea']);
    expect(calculateBlockers({ selectedSystem: gully450, drainage_area_m2: 50, pipe_diameter_mm: 160 })).toEqual([]);
  });

  it('flags inflows and accessories beyond the length', () => {
    expect(outOfRunItems({ channel_length_m: 20, inflows: [{ distance_m: 5 }] })).toBe(false);
    expect(outOfRunItems({ channel_length_m: 20, accessories: [{ distance_m: 25 }] })).toBe(true);
  });

  it('sends standard-mode calculation data with the defaults', () => {
    const body = calculationBody(designed);
    expect(body).toMatchObject({ advanced: false, calculation_method: 'GVF', catchmentShape: 'uniform', permeability: 1, loading: 'C250' });
    expect(body.rainfall).toEqual({ rainfall_mm_per_hr: 50 });
    expect(calculationBody({ selectedSystem: hicap, loading: 'A15', grating: 'x' })).not.toHaveProperty('grating');
  });
});

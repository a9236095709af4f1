// The controlled discharge dialog's rules (design-tool.md sections 4, 5 and
// 9; docs/rainfall.md section 11.2) as pure functions.
import { displayRainfall, round, toMmPerHour, type RainfallUnit } from '../design/units';
import { effectiveInputs } from '../design/runRules';
import type { RunInputs } from '../design/types';
import type { RunRainfall } from '../rainfall/types';
import { DEFAULT_RETURN_PERIOD, DEFAULT_STORM_DURATION } from '../rainfall/types';
import type { ControlledDischargeDetails, StorageResult } from './types';

/** The dialog's fields: a working copy of the run's, handed back on confirm. */
export interface StorageDraft {
  channel_length_m: number | null;
  catchment_area_m2: number | null;
  permeability: number | null;
  /** l/s, rounded to 0.1 and held to the free discharge. */
  controlled_outflow: number | null;
  /** The designer types the rainfall instead of taking the map's. */
  custom: boolean;
  rainfall: RunRainfall;
}

export type RateField = 'rainfall_mm_per_hr' | 'storm_duration' | 'fiveMinuteRate' | 'fifteenMinuteRate' | 'sixtyMinuteRate';

const positive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** The dialog opens on the run's values. */
export function draftFrom(inputs: RunInputs, defaultRainfall?: number | null): StorageDraft {
  const run = effectiveInputs(inputs, defaultRainfall);
  const rainfall = { ...(run.rainfall as RunRainfall) };
  rainfall.storm_duration = positive(rainfall.storm_duration) ? rainfall.storm_duration : DEFAULT_STORM_DURATION;
  rainfall.return_period = positive(rainfall.return_period) ? rainfall.return_period : DEFAULT_RETURN_PERIOD;
  rainfall.climate_change_factor = typeof rainfall.climate_change_factor === 'number' ? rainfall.climate_change_factor : 0;
  const controlled = typeof run.controlled_outflow === 'number' && run.controlled_outflow > 0 ? run.controlled_outflow : null;
  return {
    channel_length_m: run.channel_length_m ?? null,
    catchment_area_m2: run.drainage_area_m2 ?? null,
    permeability: run.permeability,
    controlled_outflow: controlled,
    // Without the map's M5-60 and r the rates are the designer's own.
    custom: !(positive(rainfall.M5) && positive(rainfall.r)),
    rainfall,
  };
}

/**
 * The free discharge, l/s: area × intensity / 3600, with the runoff
 * coefficient the server applies too (so the field agrees with its answer),
 * rounded to 0.1 (spec section 9).
 */
export function freeDischarge(draft: StorageDraft): number | null {
  const area = draft.catchment_area_m2;
  const rate = draft.rainfall.rainfall_mm_per_hr;
  if (!positive(area) || !positive(rate)) return null;
  const coefficient = positive(draft.permeability) ? Math.min(1, draft.permeability) : 1;
  return round((area * rate * coefficient) / 3600, 1);
}

/** Spec section 5: the controlled value is held to the free discharge, rounded to 0.1. */
export function capControlled(value: number | null, draft: StorageDraft): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const free = freeDischarge(draft);
  const capped = free === null ? Math.max(0, value) : Math.min(Math.max(0, value), free);
  return round(capped, 1);
}

/** Spec section 5: Calculate needs length, area, intensity, storm duration, r5, r15 and r60 above 0 (and a limit to size for). */
export function calculateMissing(draft: StorageDraft): string[] {
  const missing: string[] = [];
  if (!positive(draft.channel_length_m)) missing.push('channel_length_m');
  if (!positive(draft.catchment_area_m2)) missing.push('catchment_area_m2');
  for (const field of ['rainfall_mm_per_hr', 'storm_duration', 'fiveMinuteRate', 'fifteenMinuteRate', 'sixtyMinuteRate'] as const) {
    if (!positive(draft.rainfall[field])) missing.push(field);
  }
  if (!positive(draft.controlled_outflow)) missing.push('controlled_outflow');
  return missing;
}

/** The storage call's body: its decoder refuses unknown fields, so only these are sent. */
export function storageBody(draft: StorageDraft, inputs: RunInputs): Record<string, unknown> {
  const rain = draft.rainfall;
  const body: Record<string, unknown> = {
    rainfall: {
      rainfall_mm_per_hr: rain.rainfall_mm_per_hr,
      storm_duration: rain.storm_duration ?? DEFAULT_STORM_DURATION,
      return_period: rain.return_period ?? DEFAULT_RETURN_PERIOD,
      climate_change_factor: rain.climate_change_factor ?? 0,
      // Custom rainfall has no M5-60 and r: the server then draws its curve through the three rates.
      M5: draft.custom ? 0 : (rain.M5 ?? 0),
      r: draft.custom ? 0 : (rain.r ?? 0),
      fiveMinuteRate: rain.fiveMinuteRate ?? 0,
      fifteenMinuteRate: rain.fifteenMinuteRate ?? 0,
      sixtyMinuteRate: rain.sixtyMinuteRate ?? 0,
      ...(rain.region && !draft.custom ? { region: rain.region } : {}),
    },
    channel_length_m: draft.channel_length_m,
    catchment_area_m2: draft.catchment_area_m2,
    permeability: draft.permeability ?? 1,
    controlled_outflow: draft.controlled_outflow,
  };
  const system = inputs.selectedSystem;
  if (system?.slug) body.channel_group = system.slug;
  if (typeof inputs.loading === 'string' && inputs.loading) body.loading = inputs.loading;
  if (typeof inputs.ground_slope === 'number' && inputs.ground_slope >= 0) body.ground_slope = inputs.ground_slope;
  if (typeof inputs.minimumSize === 'number' && Number.isInteger(inputs.minimumSize)) body.minimumSize = inputs.minimumSize;
  return body;
}

/** Results are stale once the fields they were calculated from change. */
export function draftKey(draft: StorageDraft, inputs: RunInputs): string {
  return JSON.stringify(storageBody(draft, inputs));
}

/** The rainfall a custom entry leaves: the designer's rates, no map location. */
export function customRainfall(rainfall: RunRainfall): RunRainfall {
  return {
    rainfall_mm_per_hr: rainfall.rainfall_mm_per_hr,
    storm_duration: rainfall.storm_duration,
    return_period: rainfall.return_period,
    climate_change_factor: rainfall.climate_change_factor,
    fiveMinuteRate: rainfall.fiveMinuteRate ?? null,
    fifteenMinuteRate: rainfall.fifteenMinuteRate ?? null,
    sixtyMinuteRate: rainfall.sixtyMinuteRate ?? null,
    override: true,
    M5: null,
    r: null,
    location_id: null,
    location_index: null,
    town: null,
    intensities: null,
    region: null,
    latlng: null,
  };
}

/** What a run stores of a result: the spec's fields, without the images and the graph's numbers (they come back with the next calculation). */
export function storedResult(result: StorageResult): Record<string, unknown> {
  const { storage_graph: _graph, x_section_image: _section, storms: _storms, critical_storm: _trace, ...kept } = result;
  return kept;
}

export function detailsOf(result: StorageResult): ControlledDischargeDetails {
  return {
    ...(result.channel ? { channel: result.channel } : {}),
    channel_name: result.channel_name,
    max_depth_mm: result.max_depth_mm ?? 0,
    orifice_diameter_mm: result.orifice_diameter_mm,
  };
}

/**
 * Confirm: the run takes the dialog's fields, the controlled outflow and the
 * design. Controlled discharge is never stepped (spec section 5).
 */
export function confirmChanges(inputs: RunInputs, draft: StorageDraft, result: StorageResult): Partial<RunInputs> {
  const changes: Partial<RunInputs> = {
    controlled_outflow: draft.controlled_outflow,
    controlled_discharge: storedResult(result),
    controlled_discharge_details: detailsOf(result),
    stepped: false,
  };
  if (draft.channel_length_m !== (inputs.channel_length_m ?? null)) changes.channel_length_m = draft.channel_length_m;
  if (draft.catchment_area_m2 !== (inputs.drainage_area_m2 ?? null)) changes.drainage_area_m2 = draft.catchment_area_m2;
  if (changes.channel_length_m !== undefined || changes.drainage_area_m2 !== undefined) {
    const length = draft.channel_length_m;
    const area = draft.catchment_area_m2;
    if (positive(length) && positive(area)) changes.catchment_depth_m = round(area / length / 2, 3);
  }
  if (draft.permeability !== (inputs.permeability ?? 1)) {
    changes.permeability = draft.permeability ?? 1;
    changes.permeabilitySurface = 'custom';
  }
  if (JSON.stringify(draft.rainfall) !== JSON.stringify(inputs.rainfall ?? null)) changes.rainfall = draft.rainfall;
  return changes;
}

/** Reset: no controlled discharge; the high-capacity system is stepped again (spec section 4). */
export function resetChanges(): Partial<RunInputs> {
  return { controlled_outflow: 0, controlled_discharge: null, controlled_discharge_details: null, stepped: true };
}

export const hasControlledDischarge = (inputs: RunInputs | undefined) =>
  typeof inputs?.controlled_outflow === 'number' && inputs.controlled_outflow > 0;

/** A rainfall field as typed in the project's unit: rates to mm/h, the storm duration (minutes) as it is. */
export function rateFromDisplay(field: RateField, value: number | null, units: RainfallUnit): number | null {
  if (value === null) return null;
  return field === 'storm_duration' ? value : toMmPerHour(value, units);
}

/** A rainfall field as shown in the project's unit. */
export function rateForDisplay(field: RateField, value: number | null | undefined, units: RainfallUnit): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return field === 'storm_duration' ? value : displayRainfall(value, units);
}

// What the rainfall map reads from a run and writes back to it, as pure
// functions (design-tool.md sections 3, 4 and 9).
import { roundRainfall } from '../design/units';
import { DEFAULT_RETURN_PERIOD, DEFAULT_STORM_DURATION, type LatLng, type RainStats, type RunRainfall } from './types';

/** The map's own settings: what it asks the server with. */
export interface MapSettings {
  returnPeriod: number | null;
  climateFactor: number;
  stormDuration: number | null;
  point: LatLng | null;
  /** M5-60 and r the designer typed over the map's, with the square they belong to. */
  override: { M5: number; r: number; LocationIndex: string } | null;
}

const positive = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

/** The map opens on the run's last choice, or the spec's defaults (30 years, 30 minutes, no uplift). */
export function mapSettingsFrom(rainfall: RunRainfall | undefined | null): MapSettings {
  const point = rainfall?.latlng && Number.isFinite(rainfall.latlng.lat) && Number.isFinite(rainfall.latlng.lng) ? rainfall.latlng : null;
  const M5 = positive(rainfall?.M5);
  const r = positive(rainfall?.r);
  return {
    returnPeriod: positive(rainfall?.return_period) ?? DEFAULT_RETURN_PERIOD,
    climateFactor: typeof rainfall?.climate_change_factor === 'number' ? rainfall.climate_change_factor : 0,
    stormDuration: positive(rainfall?.storm_duration) ?? DEFAULT_STORM_DURATION,
    point,
    override: rainfall?.override && M5 !== null && r !== null && rainfall.location_index ? { M5, r, LocationIndex: rainfall.location_index } : null,
  };
}

/** Spec section 4: the map applies only with a location and a duration and return period above 0. */
export function canApply(settings: MapSettings, stats: RainStats | null): boolean {
  return stats !== null && (settings.stormDuration ?? 0) > 0 && (settings.returnPeriod ?? 0) > 0;
}

/** The intensity of the table's row for `minutes`, or null. */
export function rateAt(table: readonly (readonly [number, number])[] | null | undefined, minutes: number): number | null {
  const row = table?.find(([duration]) => duration === minutes);
  return row ? row[1] : null;
}

/** The run's rainfall object for what the map shows now. */
export function runRainfallFrom(stats: RainStats, settings: MapSettings): RunRainfall {
  return {
    rainfall_mm_per_hr: roundRainfall(stats.rainfallIntensity),
    location_id: stats.rainfallLocationId,
    location_index: stats.LocationIndex,
    town: stats.town,
    override: settings.override !== null,
    return_period: settings.returnPeriod ?? DEFAULT_RETURN_PERIOD,
    climate_change_factor: settings.climateFactor,
    storm_duration: settings.stormDuration ?? DEFAULT_STORM_DURATION,
    r: stats.r,
    M5: stats.M5,
    intensities: stats.intensity.map(([minutes, rate]) => [minutes, rate] as [number, number]),
    // The storage call's r5, r15 and r60.
    fiveMinuteRate: rateAt(stats.intensity, 5),
    fifteenMinuteRate: rateAt(stats.intensity, 15),
    sixtyMinuteRate: rateAt(stats.intensity, 60),
    region: stats.region,
    latlng: settings.point ?? stats.latlng,
  };
}

/** Spec section 7: the map sends the position to 2 decimals. */
export function roundPosition(point: LatLng): LatLng {
  return { lat: Math.round(point.lat * 100) / 100, lng: Math.round(point.lng * 100) / 100 };
}

/** How a table row's duration is labelled: "5 min" up to half an hour, then hours. */
export function durationLabel(minutes: number): { value: number; unit: 'min' | 'h' } {
  return minutes < 60 ? { value: minutes, unit: 'min' } : { value: minutes / 60, unit: 'h' };
}

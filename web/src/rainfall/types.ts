/** A point on the map, in degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** The answer of findRainStats and updateRainStats (docs/rainfall.md section 7). */
export interface RainStats {
  town: string;
  rainfallLocationId: number;
  LocationIndex: string;
  /** mm/h for the asked storm. */
  rainfallIntensity: number;
  /** M5-60, mm. */
  M5: number;
  r: number;
  /** [minutes, mm/h] for 5, 10, 15, 30, 60, 120, 240 and 480 minutes. */
  intensity: [number, number][];
  latlng: LatLng;
  source: string;
  indicative: boolean;
  region: string;
  /** The indicative field's typical error (docs/rainfall.md section 6.3); absent for the designer's own values. */
  uncertainty?: { M5: number; r: number; points: number };
}

export interface FindRainStatsQuery {
  latitude: number;
  longitude: number;
  stormDuration: number;
  returnPeriod: number;
  climateFactor: number;
}

export interface UpdateRainStatsQuery {
  r: number;
  M5: number;
  LocationIndex: string;
  stormDuration: number;
  returnPeriod: number;
  climateFactor: number;
}

/**
 * A run's rainfall as the spec's Run entity holds it (section 3). Only the
 * intensity is there for every run; the rest comes from the rainfall map or
 * the controlled discharge dialog's custom rainfall.
 */
export interface RunRainfall {
  rainfall_mm_per_hr: number;
  location_id?: number | null;
  location_index?: string | null;
  town?: string | null;
  /** M5-60 and r were entered by the designer rather than read off the map. */
  override?: boolean;
  return_period?: number;
  climate_change_factor?: number;
  storm_duration?: number;
  r?: number | null;
  M5?: number | null;
  intensities?: [number, number][] | null;
  fiveMinuteRate?: number | null;
  fifteenMinuteRate?: number | null;
  sixtyMinuteRate?: number | null;
  /** The FSR region of the place; the storage call reads it. */
  region?: string | null;
  /** Where the designer clicked, so the map opens there again. */
  latlng?: LatLng | null;
  [extra: string]: unknown;
}

/** Spec section 9: climate change uplift options, percent. */
export const CLIMATE_OPTIONS = [0, 5, 10, 15, 20, 30, 40] as const;

/** Spec section 9: default rainfall settings. */
export const DEFAULT_RETURN_PERIOD = 30;
export const DEFAULT_STORM_DURATION = 30;

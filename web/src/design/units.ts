/** Rainfall units as the server stores them (domain/account/settings.go). */
export const RAINFALL_UNITS = ['mm/h', 'l/s/m2', 'l/(s*ha)'] as const;
export type RainfallUnit = (typeof RAINFALL_UNITS)[number];

/** Spec section 3: factors against mm/h. */
const FACTORS: Record<RainfallUnit, number> = {
  'mm/h': 1,
  'l/s/m2': 0.000278,
  'l/(s*ha)': 2.78,
};

/** How each unit is written on screen. */
export const RAINFALL_UNIT_LABELS: Record<RainfallUnit, string> = {
  'mm/h': 'mm/h',
  'l/s/m2': 'l/s/m²',
  'l/(s*ha)': 'l/(s·ha)',
};

/** Accepts the stored codes and the spellings older data may hold; anything else is mm/h. */
export function toRainfallUnit(value: string | null | undefined): RainfallUnit {
  switch ((value ?? '').trim()) {
    case 'l/s/m2':
    case 'l/s/m²':
      return 'l/s/m2';
    case 'l/(s*ha)':
    case 'l/(s·ha)':
      return 'l/(s*ha)';
    default:
      return 'mm/h';
  }
}

export function fromMmPerHour(mmPerHour: number, unit: RainfallUnit): number {
  return mmPerHour * FACTORS[unit];
}

export function toMmPerHour(value: number, unit: RainfallUnit): number {
  return value / FACTORS[unit];
}

/** Spec section 9: rainfall is shown with 3 decimals, 2 from 100000 up. */
export function roundRainfall(value: number): number {
  const decimals = Math.abs(value) >= 100000 ? 2 : 3;
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** A rainfall intensity in mm/h, as the user reads it in their unit. */
export function displayRainfall(mmPerHour: number, unit: RainfallUnit): number {
  return roundRainfall(fromMmPerHour(mmPerHour, unit));
}

/** Rounds to a number of decimals without the float noise of toFixed round trips. */
export function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * scale) / scale;
}

import { describe, expect, it } from 'vitest';
import { displayRainfall, fromMmPerHour, round, roundRainfall, toMmPerHour, toRainfallUnit } from './units';

describe('rainfall units', () => {
  it('converts mm/h with the spec factors', () => {
    expect(fromMmPerHour(50, 'mm/h')).toBe(50);
    expect(fromMmPerHour(50, 'l/s/m2')).toBeCloseTo(0.0139, 10);
    expect(fromMmPerHour(50, 'l/(s*ha)')).toBeCloseTo(139, 10);
  });

  it('converts back to mm/h', () => {
    expect(toMmPerHour(139, 'l/(s*ha)')).toBeCloseTo(50, 10);
    expect(toMmPerHour(0.0139, 'l/s/m2')).toBeCloseTo(50, 10);
    expect(toMmPerHour(75, 'mm/h')).toBe(75);
  });

  it('shows three decimals, two from 100000 up', () => {
    expect(roundRainfall(0.0139)).toBe(0.014);
    expect(roundRainfall(12.34567)).toBe(12.346);
    expect(roundRainfall(99999.9996)).toBe(100000);
    expect(roundRainfall(123456.789)).toBe(123456.79);
    expect(displayRainfall(50, 'l/s/m2')).toBe(0.014);
    expect(displayRainfall(50, 'l/(s*ha)')).toBe(139);
  });

  it('reads stored unit codes, with mm/h for anything unknown', () => {
    expect(toRainfallUnit('l/s/m²')).toBe('l/s/m2');
    expect(toRainfallUnit('l/(s*ha)')).toBe('l/(s*ha)');
    expect(toRainfallUnit('mm/hr')).toBe('mm/h');
    expect(toRainfallUnit(undefined)).toBe('mm/h');
  });

  it('rounds halves up without float noise', () => {
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(0.125, 1)).toBe(0.1);
    expect(round(-2.345, 2)).toBe(-2.35);
  });
});

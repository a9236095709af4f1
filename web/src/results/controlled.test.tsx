import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { hicap } from '../design/testSystems';
import type { ControlledResult, Results, SegmentResult } from '../design/types';
import { serverMessage } from '../design/serverMessages';
import { createI18n } from '../i18n/i18n';
import type { LanguageCode } from '../i18n/languages';
import { criticalStormDepthAt, criticalStormLevel, criticalStormSeries, criticalStormSurface } from './controlledProfile';
import { SpecificationTable } from './SpecificationTable';

// The server's answer for docs/rainfall.md section 11.2's example (Leeds,
// 50 m, 300 m², 2 l/s), as domain/design's TestControlledRunIsTheDialogsDesign
// holds it to the storage calculation: the client only shows these.
const controlled: ControlledResult = {
  channel: 'poly-hicap-150-600',
  channel_name: 'High-Capacity 150 H600',
  controlled_outflow_l_s: 2,
  free_discharge_l_s: 4.1,
  restricted: true,
  orifice_diameter_mm: 37.9,
  critical_duration_min: 45,
  critical_rainfall_mm_h: 37.773,
  storage_volume_m3: 3.364,
  storage_needed_m3: 3.364,
  channel_capacity_m3: 3.629,
  max_depth_mm: 464.7,
  minimum_free_board_m: 0.035,
  peak_outflow_l_s: 2,
  flooded: false,
  flood_volume_m3: 0,
  water_level: [
    { distance_m: 0, depth_mm: 464.7 },
    { distance_m: 50, depth_mm: 464.7 },
  ],
};

const results: Results = {
  calculated: true,
  largest_channel: 'High-Capacity 150 H600',
  configuration: 'single-size',
  system_loading: 'C250',
  flow: 4.11,
  channel_discharge: 4.11,
  freeboard: 393,
  freeboard_percent: 78.5,
  controlled,
};

function specification(res: Results, language: LanguageCode = 'en') {
  render(
    <I18nextProvider i18n={createI18n(language)}>
      <SpecificationTable inputs={{ selectedSystem: hicap, channel_length_m: 50, drainage_area_m2: 300, controlled_outflow: 2 }} results={res} rainfallUnits="mm/h" defaultRainfall={null} />
    </I18nextProvider>,
  );
  const table = screen.getByRole('table');
  return (label: string) => {
    const header = within(table).queryByRole('rowheader', { name: label });
    return header ? header.closest('tr')!.querySelector('td')!.textContent : null;
  };
}

describe('the specification of a run with controlled discharge', () => {
  it('shows the server’s storage design beside the run’s channel', () => {
    const cell = specification(results);
    expect(cell('Channel')).toBe('High-Capacity 150 H600');
    expect(cell('Controlled discharge')).toBe('2 l/s');
    expect(cell('Orifice diameter')).toBe('37.9 mm');
    expect(cell('Critical duration')).toBe('45 min');
    expect(cell('Critical rainfall')).toBe('37.773 mm/h');
    expect(cell('Storage volume in the critical storm')).toBe('3.364 m³');
    expect(cell('Storage capacity of the channel')).toBe('3.629 m³');
    expect(cell('Highest water at the outlet in the critical storm')).toBe('464.7 mm');
    expect(cell('Freeboard in the critical storm')).toBe('35 mm');
    expect(cell('Flooding in the critical storm')).toBe('No');
  });

  it('says when no orifice is needed, and marks a flooded storm', () => {
    const cell = specification({ ...results, controlled: { ...controlled, restricted: false, orifice_diameter_mm: 0, flooded: true, minimum_free_board_m: 0 } });
    expect(cell('Orifice diameter')).toBe('No orifice needed');
    expect(cell('Flooding in the critical storm')).toBe('Yes');
    expect(screen.getByRole('rowheader', { name: 'Flooding in the critical storm' }).closest('tr')).toHaveClass('spec-table__row--danger');
  });

  it('shows no storage rows for a run without controlled discharge', () => {
    const cell = specification({ ...results, controlled: undefined });
    expect(cell('Orifice diameter')).toBeNull();
    expect(cell('Storage volume in the critical storm')).toBeNull();
  });

  it('is in the interface language', () => {
    const cell = specification(results, 'de');
    expect(cell('Drosselöffnung (Durchmesser)')).toBe('37,9 mm');
    expect(cell('Speichervolumen im maßgebenden Regen')).toBe('3,364 m³');
  });
});

describe('the critical storm on the profile', () => {
  // A pond 125 mm deep at the outlet of a 50 m run falling 0.5 % toward it:
  // h − 0.005·(50 − x), dry up to 25 m (domain/design pondLevel's points).
  const sloped: Results = {
    calculated: true,
    controlled: { ...controlled, max_depth_mm: 125, water_level: [{ distance_m: 0, depth_mm: 0 }, { distance_m: 25, depth_mm: 0 }, { distance_m: 50, depth_mm: 125 }] },
  };

  it('is absent without controlled discharge', () => {
    expect(criticalStormLevel({ calculated: true })).toBeNull();
    expect(criticalStormSeries({ calculated: true }, [0, 10])).toBeNull();
    expect(criticalStormSurface({ calculated: true })).toEqual([]);
  });

  it('lies straight between the server’s points, and nowhere off the run', () => {
    const points = criticalStormLevel(sloped)!;
    expect(criticalStormDepthAt(points, 10)).toBe(0);
    expect(criticalStormDepthAt(points, 37.5)).toBeCloseTo(62.5, 9);
    expect(criticalStormDepthAt(points, 50)).toBe(125);
    expect(criticalStormDepthAt(points, 50.5)).toBeNull();
    expect(criticalStormDepthAt(points, -1)).toBeNull();
    expect(criticalStormSeries(sloped, [0, 30, 45, 50])!.map((d) => Math.round(d! * 1000) / 1000)).toEqual([0, 25, 100, 125]);
  });

  it('stands level where it is wet, over the slices’ invert', () => {
    // The invert falls at the run's 0.5 %, 600 mm below the channel top at the head.
    const slices = [0, 10, 20, 30, 40, 50].map((x) => ({ distance_m: x, flow_l_s: 0, depth_mm: 0, invert_level_m: -0.6 - 0.005 * x, top_level_m: -0.005 * x }));
    const segments: SegmentResult[] = [{ channelDescription: 'High-Capacity 150 H600', length_mm: 50000, stepRaise: 0, floorChange: 0, slices }];
    const surface = criticalStormSurface(sloped, segments);
    expect(surface.map((p) => p.distance_m)).toEqual([0, 10, 20, 30, 40, 50]);
    const outletLevel = -0.6 - 0.25 + 0.125;
    for (const p of surface.filter((p) => p.distance_m >= 30)) expect(p.level_m).toBeCloseTo(outletLevel, 9);
    for (const p of surface.filter((p) => p.distance_m <= 20)) expect(p.level_m).toBeCloseTo(-0.6 - 0.005 * p.distance_m, 9);
  });
});

describe('a controlled run refused for want of rates', () => {
  it('shows the server’s refusal in the interface language', () => {
    // domain/design MsgControlledRates, word for word.
    const text = 'Controlled discharge needs the 5, 15 and 60 minute rainfall rates: open Controlled discharge, enter them and confirm again.';
    expect(serverMessage(text)).toEqual({ key: 'calc.controlledNeedsRates' });
    expect(createI18n('de').t('calc.controlledNeedsRates')).toMatch(/^Der gedrosselte Abfluss/);
  });
});

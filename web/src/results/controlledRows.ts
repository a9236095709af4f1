// The design specification's rows of a run with controlled discharge: the
// storage design the server calculated for the run (results.controlled),
// never figures of the dialog kept on the client.
import type { TFunction } from 'i18next';
import type { ControlledResult } from '../design/types';
import { displayRainfall, RAINFALL_UNIT_LABELS, type RainfallUnit } from '../design/units';

/** A specification row: label, value and an optional tone ('danger'; 'group' starts the storage rows). */
export type SpecRow = [string, string, string?];

export function controlledRows(
  controlled: ControlledResult,
  t: TFunction,
  format: (value: number | null | undefined, decimals: number) => string,
  rainfallUnits: RainfallUnit,
): SpecRow[] {
  const unit = (value: string, symbol: string) => `${value} ${symbol}`;
  const freeboardMM = controlled.minimum_free_board_m * 1000;
  return [
    [t('storage.controlled'), unit(format(controlled.controlled_outflow_l_s, 1), 'l/s'), 'group'],
    [t('storage.orifice'), controlled.restricted ? unit(format(controlled.orifice_diameter_mm, 1), 'mm') : t('storage.noOrifice')],
    [t('storage.criticalDuration'), unit(format(controlled.critical_duration_min, 0), t('rainfall.minutesShort'))],
    [t('storage.criticalRainfall'), unit(format(displayRainfall(controlled.critical_rainfall_mm_h, rainfallUnits), 3), RAINFALL_UNIT_LABELS[rainfallUnits])],
    [t('spec.storageVolume'), unit(format(controlled.storage_volume_m3, 3), 'm³')],
    [t('spec.storageCapacity'), unit(format(controlled.channel_capacity_m3, 3), 'm³')],
    [t('spec.criticalWaterDepth'), unit(format(controlled.max_depth_mm, 1), 'mm')],
    [t('spec.criticalFreeboard'), unit(format(freeboardMM, 0), 'mm'), controlled.flooded ? 'danger' : undefined],
    [t('spec.criticalFlooding'), controlled.flooded ? t('common.yes') : t('common.no'), controlled.flooded ? 'danger' : undefined],
  ];
}

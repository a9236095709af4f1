import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { catchmentOf, totalArea, totalRunoffArea } from '../catchment/areas';
import { gratingName, systemName } from '../design/catalogueText';
import { effectiveInputs, isPointProduct, loadingLabel } from '../design/runRules';
import type { Results, RunInputs } from '../design/types';
import { displayRainfall, RAINFALL_UNIT_LABELS, type RainfallUnit } from '../design/units';
import { channelRow } from './channelStretches';
import { controlledRows } from './controlledRows';
import { advancedRows } from './advancedRows';
import { useNumberFormat } from './format';

interface SpecificationTableProps {
  inputs: RunInputs;
  results: Results;
  rainfallUnits: RainfallUnit;
  defaultRainfall: number | null;
}

/** The design specification: what was asked for and what the calculation found. */
export function SpecificationTable({ inputs, results, rainfallUnits, defaultRainfall }: SpecificationTableProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const run = effectiveInputs(inputs, defaultRainfall);
  const point = isPointProduct(run.selectedSystem);
  const yesNo = (value: boolean | undefined) => (value ? t('common.yes') : t('common.no'));
  const unit = (value: string, symbol: string) => `${value} ${symbol}`;

  const rows: [string, ReactNode, string?][] = [
    [t('spec.system'), systemName(t, run.selectedSystem) || '–'],
  ];
  if (!point) {
    rows.push(
      [t('spec.loading'), loadingLabel(results.system_loading || run.loading || '–')],
      channelRow(results, t, format),
      [t('spec.configuration'), results.configuration === 'stepped' ? t('form.stepped') : t('form.singleSize')],
    );
    if (results.grating?.description) {
      rows.push([t('spec.grating'), gratingName(t, results.grating)]);
      if (results.grating.slot_dimensions) rows.push([t('spec.slotDimensions'), results.grating.slot_dimensions]);
      if (results.grating.open_area) rows.push([t('spec.openArea'), unit(String(results.grating.open_area), 'cm²/m')]);
    }
    rows.push(
      [t('spec.length'), unit(format(run.channel_length_m ?? 0, 2), 'm')],
      [t('spec.method'), t(run.calculation_method === 'HRW' ? 'form.methodHRW' : 'form.methodGVF')],
      [t('spec.slope'), unit(format(run.ground_slope ?? 0, 2), '%')],
      [t('spec.installedGradient'), unit(format(results.installed_gradient, 2), '%')],
    );
  }
  rows.push(
    [t('spec.area'), unit(format(run.drainage_area_m2 ?? 0, 2), 'm²')],
    [t('spec.rainfall'), unit(format(displayRainfall(run.rainfall.rainfall_mm_per_hr, rainfallUnits), 3), RAINFALL_UNIT_LABELS[rainfallUnits])],
    permeabilityRow(run, t, format),
    [t('spec.flow'), unit(format(results.flow ?? results.channel_discharge, 2), 'l/s')],
  );
  if (point && results.point) {
    rows.push(
      [t('spec.pipeDiameter'), unit(format(results.point.pipe_diameter_mm, 0), 'mm')],
      [t('spec.extensionHat'), yesNo(results.point.extension_hat)],
      [t('spec.capacity'), unit(format(results.point.capacity_l_s, 2), 'l/s')],
    );
  } else if (!point) {
    rows.push(
      [t('spec.flowVelocity'), unit(format(results.flow_velocity, 2), 'm/s')],
      [t('spec.channelDischarge'), unit(format(results.channel_discharge, 2), 'l/s')],
      [t('spec.maxDischarge'), unit(format(results.max_possible_discharge, 2), 'l/s')],
      [t('spec.percentageFull'), unit(format(results.percentage_full, 1), '%')],
      [t('spec.freeboard'), `${unit(format(results.freeboard, 0), 'mm')} (${unit(format(results.freeboard_percent, 1), '%')})`, results.freeboard !== undefined && results.freeboard < 0 ? 'danger' : undefined],
      [t('spec.volume'), unit(format(results.total_system_volume, 3), 'm³')],
      [t('spec.internalWidth'), unit(format(results.channel_internal_width_mm, 0), 'mm')],
      [t('spec.invertDepth'), unit(format(results.invert_depth_mm, 0), 'mm')],
      [t('spec.overallDepth'), unit(format(results.overall_depth_mm, 0), 'mm')],
      [t('spec.flooding'), yesNo(results.overflowed), results.overflowed ? 'danger' : undefined],
      [t('spec.superCritical'), yesNo(results.went_super_critical)],
    );
  }
  // Advanced mode: the concrete channel's roughness, the discharge and the cuttings as chosen.
  rows.push(...advancedRows(inputs, results, t, format));
  // Controlled discharge: the storage design the run was calculated with.
  if (!point && results.controlled) rows.push(...controlledRows(results.controlled, t, format, rainfallUnits));

  return (
    <table className="spec-table">
      <caption className="visually-hidden">{t('results.specification')}</caption>
      <tbody>
        {rows.map(([label, value, tone]) => (
          <tr key={label} className={tone ? `spec-table__row--${tone}` : undefined}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The run's permeability; an irregular catchment's is the mean of its areas', weighted by their surface. */
function permeabilityRow(run: RunInputs & { permeability: number }, t: TFunction, format: (value: number | null | undefined, decimals: number) => string): [string, string] {
  const areas = run.catchmentShape === 'irregular' ? catchmentOf(run) : null;
  const total = areas ? totalArea(areas) : 0;
  if (!areas || !(total > 0)) return [t('spec.permeability'), format(run.permeability, 2)];
  return [t('spec.permeability'), t('spec.permeabilityWeighted', { value: format(totalRunoffArea(areas) / total, 2) })];
}

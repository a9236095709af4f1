import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type uPlot from 'uplot';
import { ChartLegend, type LegendEntry } from '../charts/ChartLegend';
import { UPlotChart } from '../charts/UPlotChart';
import type { Results, RunInputs } from '../design/types';
import { useNumberFormat } from './format';
import { PROFILE_COLORS, PROFILE_DASH, profileChart, type NumberFormat } from './profileChartOptions';
import { profileData, type ProfileData, type ProfileMode } from './profileGeometry';

export interface ProfileChartProps {
  results: Pick<Results, 'segments' | 'hydraulic_jumps_m' | 'critical_sections_m' | 'controlled'>;
  inputs: Pick<RunInputs, 'inflows' | 'accessories'>;
  /** The user's setting: chainage from the discharge end instead of the head. */
  zeroAtDischarge: boolean;
  /** A click on the profile: the place under the pointer, m from the head (for placing an inflow or accessory). */
  onPick?: (fromHeadM: number) => void;
}

/**
 * The hydraulic profile (spec sections 2 and 9) as a chart: invert, channel
 * top and water surface along the run, flooding in red, super-critical
 * reaches shaded and jumps marked, joints, size steps, inflows and
 * accessories. Pointing at it (or the arrow keys on it) reads out the slice
 * under the cursor; dragging zooms to a reach, a double-click shows the
 * whole run again.
 */
export function ProfileChart({ results, inputs, zeroAtDischarge, onPick }: ProfileChartProps) {
  const { t, i18n } = useTranslation();
  const format = useNumberFormat();
  const formatRef = useRef<NumberFormat>(format);
  useEffect(() => {
    formatRef.current = format;
  });
  // Depth or level is a way of looking, kept while the page is open.
  const [mode, setMode] = useState<ProfileMode>('depth');
  const [index, setIndex] = useState<number | null>(null);
  const [zoomed, setZoomed] = useState(false);
  const plotRef = useRef<uPlot | null>(null);
  const readoutId = useId();
  const modeName = useId();

  const data = useMemo(() => profileData(results, inputs, mode, zeroAtDischarge), [results, inputs, mode, zeroAtDischarge]);
  const language = i18n.language;
  const chart = useMemo(() => {
    if (!data) return null;
    const text = {
      // Short enough for a phone; the caption says where it is measured from.
      x: `${t('results.profileChainage')} (m)`,
      y: t(mode === 'depth' ? 'results.profileAxisDepth' : 'results.profileAxisLevel'),
      invert: t('results.legendInvert'),
      top: t('results.legendTop'),
      water: t('results.legendWater'),
      storm: t('results.legendCriticalStorm'),
    };
    return profileChart(data, text, (v, d) => formatRef.current(v, d));
    // The language changes the texts and the numbers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, language]);

  if (!data || !chart) return <p className="muted">{t('results.profileUnavailable')}</p>;
  const label = t(data.flooded ? 'results.profileFlooded' : 'results.profileLabel', { length: format(data.lengthM, 1) });
  const point = index !== null ? data.points[index] : undefined;

  return (
    <figure className="profile profile--chart">
      <div className="chart-toolbar">
        <fieldset>
          <legend>{t('results.profileVertical')}</legend>
          {(['depth', 'level'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name={modeName} value={m} checked={mode === m} onChange={() => setMode(m)} />
              {t(m === 'depth' ? 'results.profileAxisDepth' : 'results.profileAxisLevel')}
            </label>
          ))}
        </fieldset>
        {zoomed && (
          <button type="button" className="button button--quiet button--small" onClick={() => plotRef.current?.setScale('x', { min: data.x[0]!, max: data.x[data.x.length - 1]! })}>
            {t('chart.zoomReset')}
          </button>
        )}
        <p className="chart-toolbar__hint">{t('chart.zoomHint')}</p>
      </div>
      <UPlotChart
        className="profile-chart"
        options={chart.options}
        data={chart.data}
        label={label}
        describedBy={readoutId}
        onIndex={setIndex}
        onZoom={setZoomed}
        plotRef={plotRef}
        onPick={onPick ? (value) => onPick(headDistance(data, value)) : undefined}
      />
      <div id={readoutId} className="profile-readout" role="status" aria-live="polite">
        {point ? <Readout data={data} index={index!} format={format} /> : <p className="chart-readout__empty">{t('chart.readoutEmpty')}</p>}
      </div>
      <figcaption>
        <ChartLegend entries={legendEntries(data, t)} />
        <p className="chart-legend__note">{t(zeroAtDischarge ? 'results.distanceFromDischarge' : 'results.distanceFromHead')}</p>
      </figcaption>
    </figure>
  );
}

/** A value on the chart's axis as a distance from the head (the axis may run from the discharge end). */
function headDistance(data: ProfileData, value: number): number {
  const first = data.points[0]!.distanceM;
  const last = data.points[data.points.length - 1]!.distanceM;
  const head = Math.min(first, last);
  return data.fromDischarge ? Math.max(first, last) - value : head + value;
}

function Readout({ data, index, format }: { data: ProfileData; index: number; format: (value: number | null | undefined, decimals: number) => string }) {
  const { t } = useTranslation();
  const p = data.points[index]!;
  // Decimals: chainage to the cm, depth to 0.1 mm, flow to 0.01 l/s (spec section 9), velocity to the cm/s, Froude to 2 places.
  const items: [string, string, string][] = [
    ['chainage', t('results.profileChainage'), `${format(p.chainage, 2)} m`],
    ['depth', t('results.profileDepth'), `${format(p.depthMm, 1)} mm`],
    ['flow', t('results.profileFlow'), `${format(p.flowLs, 2)} l/s`],
    ['velocity', t('results.profileVelocity'), p.velocityMs === null ? '–' : `${format(p.velocityMs, 2)} m/s`],
    ['froude', t('results.profileFroude'), p.froude === null ? '–' : format(p.froude, 2)],
  ];
  if (data.mode === 'level') items.push(['level', t('results.profileWaterLevel'), `${format(p.waterM, 3)} m`]);
  items.push(['channel', t('spec.channel'), p.channel]);
  return (
    <dl className="chart-readout">
      {items.map(([field, name, value]) => (
        <div key={field} className="chart-readout__item">
          <dt>{name}</dt>
          <dd data-field={field}>{value}</dd>
        </div>
      ))}
      {p.supercritical && <div className="chart-readout__flag">{t('spec.superCritical')}</div>}
      {p.waterM > p.topM + 1e-6 && <div className="chart-readout__flag chart-readout__flag--flood">{t('results.legendFlooding')}</div>}
    </dl>
  );
}

function legendEntries(data: ProfileData, t: TFunction): LegendEntry[] {
  const entries: LegendEntry[] = [
    { label: t('results.legendInvert'), line: PROFILE_COLORS.invert, width: 2 },
    { label: t('results.legendTop'), line: PROFILE_COLORS.top, dash: PROFILE_DASH.top },
    { label: t('results.legendWater'), line: PROFILE_COLORS.water, width: 2, fill: PROFILE_COLORS.waterBody },
  ];
  if (data.storm) entries.push({ label: t('results.legendCriticalStorm'), line: PROFILE_COLORS.storm, dash: PROFILE_DASH.storm, width: 2 });
  if (data.flooded) entries.push({ label: t('results.legendFlooding'), fill: PROFILE_COLORS.flood, line: PROFILE_COLORS.floodLine, width: 2 });
  if (data.supercritical.length > 0) entries.push({ label: t('spec.superCritical'), fill: PROFILE_COLORS.supercritical });
  if (data.jumps.length > 0) entries.push({ label: t('results.legendJump'), marker: 'tick', line: PROFILE_COLORS.jump, width: 2.5 });
  if (data.joints.length > 0) entries.push({ label: t('results.legendJoint'), marker: 'tick', line: PROFILE_COLORS.joint });
  if (data.steps.length > 0) entries.push({ label: t('results.legendStep'), marker: 'tick', line: PROFILE_COLORS.step, dash: PROFILE_DASH.step, width: 1.5 });
  if (data.inflows.length > 0) entries.push({ label: t('results.legendInflow'), marker: 'triangle', fill: PROFILE_COLORS.inflow });
  if (data.accessories.length > 0) entries.push({ label: t('results.legendAccessory'), marker: 'square', fill: PROFILE_COLORS.accessory });
  return entries;
}

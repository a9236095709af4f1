import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type uPlot from 'uplot';
import { ChartLegend, type LegendEntry } from '../charts/ChartLegend';
import { UPlotChart, type ChartOptions } from '../charts/UPlotChart';
import { useNumberFormat } from '../results/format';
import { tickDecimals, type NumberFormat } from '../results/profileChartOptions';
import { storageGraphData, type StorageGraphData } from './storageGraphData';
import type { StorageResult } from './types';

const COLORS = {
  stored: '#0b5fa5',
  storedFill: 'rgba(11, 95, 165, 0.16)',
  held: '#8593a3',
  capacity: '#c81e1e',
  inflow: '#1d2733',
  outflow: '#1f7a3d',
  grid: '#e6ebf1',
  axis: '#536173',
} as const;
const CAPACITY_DASH = [6, 4];
const INFLOW_DASH = [2, 3];

interface GraphText {
  time: string;
  volume: string;
  flow: string;
  stored: string;
  held: string;
  capacity: string;
  inflow: string;
  outflow: string;
}

/** The controlled discharge's storage graph (spec section 2), drawn from the numbers of the critical storm. */
export function StorageGraph({ result }: { result: Pick<StorageResult, 'critical_storm' | 'channel_capacity_m3'> }) {
  const { t, i18n } = useTranslation();
  const format = useNumberFormat();
  const formatRef = useRef<NumberFormat>(format);
  useEffect(() => {
    formatRef.current = format;
  });
  const [index, setIndex] = useState<number | null>(null);
  const [zoomed, setZoomed] = useState(false);
  const plotRef = useRef<uPlot | null>(null);
  const readoutId = useId();
  const data = useMemo(() => storageGraphData(result), [result]);
  const language = i18n.language;
  const text: GraphText = {
    time: t('storage.graphTime'),
    volume: t('storage.graphVolume'),
    flow: t('storage.graphFlow'),
    stored: t('storage.graphStored'),
    held: t('storage.graphHeld'),
    capacity: t('storage.graphCapacity'),
    inflow: t('storage.graphInflow'),
    outflow: t('storage.graphOutflow'),
  };
  const chart = useMemo(
    () => (data ? storageChart(data, text, (v, d) => formatRef.current(v, d)) : null),
    // The texts follow the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data, language],
  );
  if (!data || !chart) return null;

  const entries: LegendEntry[] = [
    { label: text.stored, line: COLORS.stored, width: 2, fill: COLORS.storedFill },
    ...(data.held ? [{ label: text.held, line: COLORS.held, width: 2 }] : []),
    { label: text.capacity, line: COLORS.capacity, dash: CAPACITY_DASH },
    { label: text.inflow, line: COLORS.inflow, dash: INFLOW_DASH },
    { label: text.outflow, line: COLORS.outflow, width: 2 },
  ];
  const i = index;
  return (
    <figure className="storage-graph">
      <div className="chart-toolbar">
        {zoomed && (
          <button type="button" className="button button--quiet button--small" onClick={() => plotRef.current?.setScale('x', { min: data.t[0]!, max: data.t[data.t.length - 1]! })}>
            {t('chart.zoomReset')}
          </button>
        )}
        <p className="chart-toolbar__hint">{t('chart.zoomHint')}</p>
      </div>
      <UPlotChart className="storage-chart" options={chart.options} data={chart.data} label={t('storage.graph')} describedBy={readoutId} onIndex={setIndex} onZoom={setZoomed} plotRef={plotRef} />
      <div id={readoutId} role="status" aria-live="polite">
        {i === null ? (
          <p className="chart-readout__empty">{t('chart.readoutEmpty')}</p>
        ) : (
          <dl className="chart-readout">
            {(
              [
                ['time', t('storage.graphTimeShort'), `${format(data.t[i], 1)} min`],
                ['stored', text.stored, `${format(data.stored[i], 3)} m³`],
                ...(data.held ? [['held', text.held, `${format(data.held[i], 3)} m³`]] : []),
                ['inflow', text.inflow, `${format(data.inflow[i], 2)} l/s`],
                ['outflow', text.outflow, `${format(data.outflow[i], 2)} l/s`],
              ] as [string, string, string][]
            ).map(([field, name, value]) => (
              <div key={field} className="chart-readout__item">
                <dt>{name}</dt>
                <dd data-field={field}>{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
      <figcaption>
        <ChartLegend entries={entries} />
      </figcaption>
    </figure>
  );
}

function storageChart(data: StorageGraphData, text: GraphText, format: NumberFormat): { options: ChartOptions; data: uPlot.AlignedData } {
  const axisFont = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  const labelFont = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  const ticks = (_u: uPlot, splits: number[], _axis: number, _space: number, increment: number) => splits.map((v) => format(v, tickDecimals(increment)));
  // The flows get more headroom than the volumes, so that the inflow's peak does not sit on the capacity line.
  const fromZero =
    (headroom: number) =>
    (_u: uPlot, _min: number, max: number): [number, number] => [0, (max || 1) * headroom];
  const series: uPlot.Series[] = [
    { label: text.time },
    { label: text.stored, scale: 'm3', stroke: COLORS.stored, width: 2, fill: COLORS.storedFill, points: { show: false } },
    ...(data.held ? [{ label: text.held, scale: 'm3', stroke: COLORS.held, width: 2, points: { show: false } }] : []),
    { label: text.capacity, scale: 'm3', stroke: COLORS.capacity, width: 1.5, dash: CAPACITY_DASH, points: { show: false } },
    { label: text.inflow, scale: 'ls', stroke: COLORS.inflow, width: 1.5, dash: INFLOW_DASH, points: { show: false } },
    { label: text.outflow, scale: 'ls', stroke: COLORS.outflow, width: 2, points: { show: false } },
  ];
  const values: uPlot.AlignedData = [data.t, data.stored, ...(data.held ? [data.held] : []), data.capacity, data.inflow, data.outflow];
  return {
    options: {
      scales: { x: { time: false }, m3: { range: fromZero(1.1) }, ls: { range: fromZero(1.4) } },
      series,
      axes: [
        { label: text.time, labelFont, font: axisFont, stroke: COLORS.axis, grid: { stroke: COLORS.grid, width: 1 }, values: ticks },
        { scale: 'm3', label: text.volume, labelFont, font: axisFont, stroke: COLORS.stored, grid: { stroke: COLORS.grid, width: 1 }, values: ticks, size: 56 },
        { scale: 'ls', side: 1, label: text.flow, labelFont, font: axisFont, stroke: COLORS.outflow, grid: { show: false }, values: ticks, size: 56 },
      ],
      legend: { show: false },
      cursor: { y: false, drag: { x: true, y: false, setScale: true }, points: { size: 6, width: 1.5 } },
      padding: [14, 0, 0, 0],
    },
    data: values,
  };
}

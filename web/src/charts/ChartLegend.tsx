/** One entry of a chart's legend: a line, a filled area, or a marker as the chart draws it. */
export interface LegendEntry {
  label: string;
  line?: string;
  width?: number;
  dash?: readonly number[];
  fill?: string;
  /** tick: a vertical line; triangle and square: filled markers. */
  marker?: 'tick' | 'triangle' | 'square';
}

export function ChartLegend({ entries }: { entries: readonly LegendEntry[] }) {
  return (
    <ul className="chart-legend">
      {entries.map((entry) => (
        <li key={entry.label} className="chart-legend__item">
          <Swatch entry={entry} />
          {entry.label}
        </li>
      ))}
    </ul>
  );
}

function Swatch({ entry }: { entry: LegendEntry }) {
  const stroke = { stroke: entry.line, strokeWidth: entry.width ?? 1.5, strokeDasharray: entry.dash?.join(' ') };
  let shape;
  switch (entry.marker) {
    case 'tick':
      shape = <line x1={10} x2={10} y1={0} y2={12} {...stroke} />;
      break;
    case 'triangle':
      shape = <path d="M4 2 H16 L10 11 Z" fill={entry.fill} />;
      break;
    case 'square':
      shape = <rect x={6} y={2} width={8} height={8} fill={entry.fill} />;
      break;
    default:
      shape = (
        <>
          {entry.fill && <rect x={0} y={entry.line ? 6 : 1} width={20} height={entry.line ? 6 : 10} fill={entry.fill} />}
          {entry.line && <line x1={0} x2={20} y1={6} y2={6} {...stroke} />}
        </>
      );
  }
  return (
    <svg className="chart-legend__swatch" viewBox="0 0 20 12" aria-hidden="true" focusable="false">
      {shape}
    </svg>
  );
}

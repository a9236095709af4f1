import { useTranslation } from 'react-i18next';
import type { Results } from '../design/types';
import { useNumberFormat } from './format';

/**
 * A generic cross-section of the largest channel: internal width, overall
 * depth and the deepest water, with the spec's disclaimer that it is generic.
 */
export function CrossSection({ results }: { results: Results }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const width = results.channel_internal_width_mm ?? 0;
  const depth = results.max_channel_depth_mm || results.invert_depth_mm || 0;
  const overall = results.overall_depth_mm ?? depth;
  if (!(width > 0) || !(depth > 0)) return null;

  // Drawn to scale in a 220 × 200 box.
  const scale = Math.min(140 / width, 150 / Math.max(overall, depth));
  const w = width * scale;
  const d = depth * scale;
  const wall = 12;
  const left = 110 - w / 2;
  const top = 30;
  const water = Math.min(results.max_depth_mm ?? 0, depth) * scale;
  const body = Math.max(overall * scale, d + wall);

  return (
    <figure className="cross-section">
      <svg viewBox="0 0 270 220" width="270" height="220" role="img" aria-label={t('results.crossSectionLabel', { width: format(width, 0), depth: format(depth, 0) })}>
        <rect className="cross-section__ground" x={10} y={top - 6} width={200} height={6} />
        <path
          className="cross-section__body"
          d={`M${left - wall},${top} L${left - wall},${top + body} L${left + w + wall},${top + body} L${left + w + wall},${top} L${left + w},${top} L${left + w},${top + d} L${left},${top + d} L${left},${top} Z`}
        />
        {water > 0 && <rect className="cross-section__water" x={left} y={top + d - water} width={w} height={water} />}
        <rect className="cross-section__grating" x={left - 2} y={top - 5} width={w + 4} height={5} />
        <text className="cross-section__dim" x={110} y={top + body + 16} textAnchor="middle">
          {format(width, 0)} mm
        </text>
        <text className="cross-section__dim" x={left + w + wall + 4} y={top + d / 2} dominantBaseline="middle">
          {format(depth, 0)} mm
        </text>
      </svg>
      <figcaption className="cross-section__disclaimer">{t('results.crossSectionDisclaimer')}</figcaption>
    </figure>
  );
}

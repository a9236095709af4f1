import { useTranslation } from 'react-i18next';
import { useWindowWidth } from '../components/useWindowWidth';
import type { SegmentResult } from '../design/types';
import { useNumberFormat } from './format';
import { drawProfile, profileSize } from './profileGeometry';

const MARGIN = { left: 8, right: 8, top: 8, bottom: 26 };

/** The hydraulic profile: invert, channel top and water surface; flooding in red. */
export function ProfileChart({ segments, zeroAtDischarge }: { segments: readonly SegmentResult[]; zeroAtDischarge: boolean }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const size = profileSize(useWindowWidth());
  const drawing = drawProfile(segments, size, zeroAtDischarge);
  if (!drawing) return <p className="muted">{t('results.profileUnavailable')}</p>;
  const width = size.width + MARGIN.left + MARGIN.right;
  const height = size.height + MARGIN.top + MARGIN.bottom;

  return (
    <figure className="profile">
      <svg
        className="profile__svg"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={t(drawing.flooded ? 'results.profileFlooded' : 'results.profileLabel', { length: format(drawing.lengthM, 1) })}
        data-flooded={drawing.flooded || undefined}
      >
        <g transform={`translate(${MARGIN.left} ${MARGIN.top})`}>
          <path className="profile__water-body" d={drawing.waterBody} />
          {drawing.floods.map((d, index) => (
            <path key={index} className="profile__flood" d={d} data-testid="profile-flood" />
          ))}
          <path className="profile__top" d={drawing.top} />
          <path className="profile__invert" d={drawing.invert} />
          <path className="profile__water" d={drawing.water} />
          {drawing.joints.map((x, index) => (
            <line key={index} className="profile__joint" x1={x} x2={x} y1={0} y2={size.height} />
          ))}
          <line className="profile__axis" x1={0} x2={size.width} y1={size.height + 4} y2={size.height + 4} />
          {drawing.markers.map((marker) => (
            <g key={`${marker.x}-${marker.label}`} transform={`translate(${marker.x} ${size.height + 4})`}>
              <line className="profile__tick" y1={0} y2={5} />
              <text className="profile__label" y={17} textAnchor={marker.x < 10 ? 'start' : marker.x > size.width - 10 ? 'end' : 'middle'}>
                {format(marker.label, 1)}
              </text>
            </g>
          ))}
        </g>
      </svg>
      <figcaption className="profile__legend">
        <span className="legend legend--invert">{t('results.legendInvert')}</span>
        <span className="legend legend--top">{t('results.legendTop')}</span>
        <span className="legend legend--water">{t('results.legendWater')}</span>
        {drawing.flooded && <span className="legend legend--flood">{t('results.legendFlooding')}</span>}
        <span className="profile__axis-note">{t(zeroAtDischarge ? 'results.distanceFromDischarge' : 'results.distanceFromHead')}</span>
      </figcaption>
    </figure>
  );
}

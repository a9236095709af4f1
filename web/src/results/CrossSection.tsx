import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Results } from '../design/types';
import { crossSectionGeometry, drawable, genericStretch, outletStretch } from './crossSectionGeometry';
import { useNumberFormat } from './format';

/** Room for the drawing (px) and around it for the dimension lines. */
const BOX = 170;
const LEFT = 66;
const TOP = 40;
const RIGHT = 70;
const BOTTOM = 16;

/**
 * The cross-section of the run's channel drawn to scale from the catalogue:
 * body, waterway, grating, the deepest water of the stretch, dimension lines
 * for the internal width, the invert depth and the overall depth, and a
 * caption naming each figure. A stepped run can show each of its sizes.
 */
export function CrossSection({ results }: { results: Results }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const clipId = useId();
  const uses = results.channels_used ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const index = chosen !== null && chosen < uses.length ? chosen : outletStretch(uses);
  const stretch = uses[index];
  const generic = !drawable(stretch);
  const use = drawable(stretch) ? stretch : genericStretch(results);
  if (!use) return null;

  const g = crossSectionGeometry(use);
  const s = Math.min(BOX / g.outerWidth, BOX / g.bodyHeight);
  const w = g.outerWidth * s;
  const h = g.bodyHeight * s;
  const invertY = TOP + g.invertDepth * s;
  const waterTop = TOP + (g.invertDepth - g.waterDepth) * s;
  const x0 = LEFT + g.left * s;
  const x1 = x0 + g.internalWidth * s;
  const mm = (v: number) => `${format(v, 0)} mm`;
  const slot = use.shape.kind === 'slot';

  return (
    <figure className="cross-section">
      {uses.length > 1 && !generic && (
        <div className="field cross-section__choice">
          <label htmlFor={`${clipId}-stretch`}>{t('results.section.stretch')}</label>
          <select id={`${clipId}-stretch`} value={index} onChange={(event) => setChosen(Number(event.target.value))}>
            {uses.map((u, i) => (
              <option key={`${u.slug}-${i}`} value={i}>
                {t('results.section.stretchOption', { name: u.name, from: format(u.from_m ?? 0, 2), to: format(u.to_m ?? 0, 2) })}
              </option>
            ))}
          </select>
        </div>
      )}
      <svg
        viewBox={`0 0 ${LEFT + w + RIGHT} ${TOP + h + BOTTOM}`}
        width={LEFT + w + RIGHT}
        height={TOP + h + BOTTOM}
        role="img"
        aria-label={t('results.crossSectionLabel', { width: format(g.internalWidth, 0), depth: format(g.invertDepth, 0) })}
      >
        <defs>
          <clipPath id={clipId}>
            <path d={g.waterway} transform={`translate(${LEFT} ${TOP}) scale(${s})`} />
          </clipPath>
        </defs>
        <rect className="cross-section__ground" x={LEFT - 24} y={TOP - 5} width={w + 48} height={5} />
        <rect className="cross-section__body" x={LEFT} y={TOP} width={w} height={h} />
        <path className="cross-section__waterway" d={g.waterway} transform={`translate(${LEFT} ${TOP}) scale(${s})`} vectorEffect="non-scaling-stroke" />
        {g.waterDepth > 0 && <rect className="cross-section__water" clipPath={`url(#${clipId})`} x={x0} y={waterTop} width={x1 - x0} height={invertY - waterTop} />}
        {!slot && <rect className="cross-section__grating" x={x0 - 2} y={TOP - 5} width={x1 - x0 + 4} height={5} />}

        {/* Internal width, above the ground line. */}
        <line className="cross-section__dimline" x1={x0} y1={TOP - 14} x2={x1} y2={TOP - 14} />
        <text className="cross-section__dim" x={(x0 + x1) / 2} y={TOP - 19} textAnchor="middle">
          {mm(g.internalWidth)}
        </text>
        {/* Invert depth, right of the body. */}
        <line className="cross-section__dimline" x1={LEFT + w + 10} y1={TOP} x2={LEFT + w + 10} y2={invertY} />
        <text className="cross-section__dim" x={LEFT + w + 14} y={(TOP + invertY) / 2} dominantBaseline="middle">
          {mm(g.invertDepth)}
        </text>
        {/* Overall depth, left of the body. */}
        <line className="cross-section__dimline" x1={LEFT - 10} y1={TOP} x2={LEFT - 10} y2={TOP + h} />
        <text className="cross-section__dim" x={LEFT - 14} y={TOP + h / 2} dominantBaseline="middle" textAnchor="end">
          {mm(g.bodyHeight)}
        </text>
      </svg>
      <dl className="cross-section__legend">
        {use.name && (
          <>
            <dt>{t('results.section.channel')}</dt>
            <dd>{use.name}</dd>
          </>
        )}
        <dt>{t('spec.internalWidth')}</dt>
        <dd>{mm(g.internalWidth)}</dd>
        <dt>{t('results.section.invertDepth')}</dt>
        <dd>{mm(g.invertDepth)}</dd>
        <dt>{t('spec.overallDepth')}</dt>
        <dd>{mm(g.bodyHeight)}</dd>
        <dt>{t('results.section.water')}</dt>
        <dd>{mm(g.waterDepth)}</dd>
      </dl>
      <figcaption className="cross-section__disclaimer">{t(generic ? 'results.crossSectionDisclaimer' : 'results.section.caption')}</figcaption>
    </figure>
  );
}

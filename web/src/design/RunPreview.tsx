import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNumberFormat } from '../results/format';
import { laidLengthMM, type ChannelUse, type Cutting, type DischargeSetting, type Drilling } from './advancedRules';

interface RunPreviewProps {
  uses: readonly ChannelUse[];
  head: Cutting | null;
  discharge: Cutting | null;
  setting: DischargeSetting;
  drilled: Drilling | null;
  /** The trash box at the discharge, mm long (spec section 9: 500, or 1000 for the super system's 400 and 500). */
  trashBoxMM: number;
  targetMM: number;
}

const WIDTH = 1000;
const HEIGHT = 230;
const LEFT = 24;
const RIGHT = 24;
const TOP = 46;
const DEPTH_ROOM = 140;

/**
 * The run drawn to scale along its length (spec section 2, channels screen):
 * head on the left, each channel stretch at its body height (a step shows
 * where the height changes), the pieces cut off at either end hatched, the
 * discharge as set (an outlet arrow, a trash box, an end cap with its
 * outlet, the drilled hole) and the run length the channels must lay.
 */
export function RunPreview({ uses, head, discharge, setting, drilled, trashBoxMM, targetMM }: RunPreviewProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const hatch = useId();
  const headCut = head?.distance_in_mm ?? 0;
  const tailCut = discharge?.distance_in_mm ?? 0;
  const laid = laidLengthMM(uses, head, discharge);
  const box = setting === 'outflow-in-trashbox' ? trashBoxMM : 0;
  const span = Math.max(1, headCut + Math.max(laid, 0) + tailCut + box, targetMM + headCut);
  const scale = (WIDTH - LEFT - RIGHT) / span;
  const deepest = Math.max(1, ...uses.map((use) => use.body_height_mm));
  const depthScale = DEPTH_ROOM / (deepest + (box > 0 ? 25 : 0));
  const x = (mm: number) => LEFT + (mm + headCut) * scale;
  const elements = uses.reduce((n, use) => n + use.count, 0);

  // Stretches of one channel, from the uncut head (at −headCut) to the uncut end.
  let at = -headCut;
  const stretches = uses.map((use) => {
    const from = at;
    at += use.count * use.channel_length_mm;
    return { use, from, to: at };
  });
  const last = stretches[stretches.length - 1];
  const endX = x(laid);
  const lastHeight = (last?.use.body_height_mm ?? 0) * depthScale;
  const label = t('advanced.previewLabel', { count: elements, length: format(laid / 1000, 2) });

  return (
    <svg className="run-preview" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      <title>{label}</title>
      <defs>
        <pattern id={hatch} width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <line x1="0" y1="0" x2="0" y2="8" className="run-preview__hatch" />
        </pattern>
      </defs>
      <text x={LEFT} y={16} className="run-preview__end-label">
        {t('advanced.head')}
      </text>
      <text x={WIDTH - RIGHT} y={16} textAnchor="end" className="run-preview__end-label">
        {t('advanced.dischargeEnd')}
      </text>
      <line x1={LEFT} y1={TOP} x2={WIDTH - RIGHT} y2={TOP} className="run-preview__ground" />
      {stretches.map(({ use, from, to }, index) => {
        const height = use.body_height_mm * depthScale;
        const joints = elements <= 150 ? Array.from({ length: use.count - 1 }, (_, k) => from + (k + 1) * use.channel_length_mm) : [];
        return (
          <g key={`${use.slug}-${index}`} className={`run-preview__stretch run-preview__stretch--${index % 2 ? 'odd' : 'even'}`}>
            <rect x={x(from)} y={TOP} width={Math.max(0.5, (to - from) * scale)} height={height}>
              <title>{`${use.name}: ${use.count} × ${use.channel_length_mm} mm`}</title>
            </rect>
            {joints.map((joint) => (
              <line key={joint} x1={x(joint)} x2={x(joint)} y1={TOP} y2={TOP + height} className="run-preview__joint" />
            ))}
            {use.kind === 'l' && <line x1={x(to) - 10} x2={x(to) - 10} y1={TOP + height} y2={TOP + height + 22} className="run-preview__outlet" />}
          </g>
        );
      })}
      {headCut > 0 && uses[0] && (
        <g className="run-preview__cut">
          <rect x={x(-headCut)} y={TOP} width={headCut * scale} height={uses[0].body_height_mm * depthScale} fill={`url(#${hatch})`} />
          <line x1={x(0)} x2={x(0)} y1={TOP - 6} y2={TOP + uses[0].body_height_mm * depthScale + 6} className="run-preview__cut-line" />
          <text x={x(0) + 4} y={TOP - 8} className="run-preview__note">
            {`✂ ${format(headCut, 0)} mm, ${format(head!.angle_deg, 1)}°`}
          </text>
        </g>
      )}
      {tailCut > 0 && last && (
        <g className="run-preview__cut">
          <rect x={endX} y={TOP} width={tailCut * scale} height={lastHeight} fill={`url(#${hatch})`} />
          <line x1={endX} x2={endX} y1={TOP - 6} y2={TOP + lastHeight + 6} className="run-preview__cut-line" />
          <text x={endX - 4} y={TOP - 8} textAnchor="end" className="run-preview__note">
            {`✂ ${format(tailCut, 0)} mm, ${format(discharge!.angle_deg, 1)}°`}
          </text>
        </g>
      )}
      {last && setting === 'outflow-in-trashbox' && (
        <g className="run-preview__box">
          <rect x={endX} y={TOP} width={box * scale} height={lastHeight + 25 * depthScale} />
          <line x1={endX + (box * scale) / 2} x2={endX + (box * scale) / 2} y1={TOP + lastHeight + 25 * depthScale} y2={TOP + lastHeight + 25 * depthScale + 20} className="run-preview__outlet" />
        </g>
      )}
      {last && setting === 'end-cap-with-outlet' && (
        <g className="run-preview__cap">
          <rect x={endX} y={TOP} width={5} height={lastHeight} />
          <line x1={endX + 5} x2={endX + 30} y1={TOP + lastHeight - 8} y2={TOP + lastHeight - 8} className="run-preview__outlet" />
        </g>
      )}
      {last && setting === 'free-outflow' && (
        <path d={`M ${endX + 2} ${TOP + lastHeight - 10} h 22 m -7 -6 l 7 6 l -7 6`} className="run-preview__arrow" />
      )}
      {last && drilled && last.use.kind !== 'l' && setting === 'modification-last-element' && (
        <g className="run-preview__drill">
          {drilled.position === 'bottom' ? (
            <line x1={endX - drilled.hole_distance_mm * scale} x2={endX - drilled.hole_distance_mm * scale} y1={TOP + lastHeight} y2={TOP + lastHeight + 22} className="run-preview__outlet" />
          ) : (
            <circle cx={endX - drilled.hole_distance_mm * scale} cy={TOP + lastHeight - Math.min(lastHeight / 2, (drilled.hole_diameter_mm / 2) * depthScale + 2)} r={Math.max(3, (drilled.hole_diameter_mm / 2) * depthScale)} />
          )}
        </g>
      )}
      {targetMM > 0 && targetMM !== laid && (
        <g className="run-preview__target">
          <line x1={x(targetMM)} x2={x(targetMM)} y1={TOP - 14} y2={HEIGHT - 14} />
          <text x={x(targetMM)} y={HEIGHT - 2} textAnchor={x(targetMM) > WIDTH / 2 ? 'end' : 'start'}>
            {t('advanced.targetMark', { length: format(targetMM / 1000, 2) })}
          </text>
        </g>
      )}
      <text x={LEFT} y={HEIGHT - 2} className="run-preview__note">
        {uses.length > 0 ? `${format(laid / 1000, 2)} m` : t('advanced.previewEmpty')}
      </text>
    </svg>
  );
}

import type { TFunction } from 'i18next';
import { channelUses, concreteOf, cuttingOf, dischargeOf, drillingOf, hasLChannel, kstOf } from '../design/advancedRules';
import type { Results, RunInputs } from '../design/types';

type Format = (value: number | null | undefined, decimals: number) => string;

/**
 * The specification's rows of an advanced design: the concrete channel's
 * roughness with its Kst, the discharge as chosen (trash box, end cap
 * outlet, drilled last element) and the cuttings.
 */
export function advancedRows(inputs: RunInputs, results: Results, t: TFunction, format: Format): [string, string][] {
  if (results.advanced !== true && inputs.advanced !== true) return [];
  const rows: [string, string][] = [];
  if (inputs.selectedSystem?.product_type === 'M') {
    const section = concreteOf(inputs.concreteChannel);
    rows.push([t('spec.roughness'), format(section.roughness, 5)], [t('spec.kst'), `${format(kstOf(section.roughness), 2)} m^⅓/s`]);
    return rows;
  }
  const setting = dischargeOf(inputs);
  const uses = channelUses(inputs);
  let discharge: string;
  switch (setting) {
    case 'outflow-in-trashbox': {
      const box = inputs.outflowTrashbox;
      discharge = typeof box === 'number' ? `${t('advanced.setting.trashBox')}, ${t('advanced.trashBoxOption', { discharge: format(box, 1) })}` : t('advanced.setting.trashBox');
      break;
    }
    case 'end-cap-with-outlet':
      discharge = `${t('advanced.setting.endCap')}${typeof inputs.outflowEndcap === 'string' ? ` (${inputs.outflowEndcap})` : ''}`;
      break;
    case 'modification-last-element': {
      const d = drillingOf(inputs.drilling);
      discharge = hasLChannel(uses)
        ? t('advanced.setting.modification')
        : `${t('advanced.setting.modification')}: ${t('spec.drilled', { diameter: d.hole_diameter_mm, distance: d.hole_distance_mm, position: t(`advanced.drill.${d.position}`) })}`;
      break;
    }
    default:
      discharge = t('advanced.setting.freeOutflow');
  }
  rows.push([t('spec.discharge'), discharge]);
  for (const [label, cut] of [
    [t('spec.headCut'), cuttingOf(inputs.headCutting)],
    [t('spec.dischargeCut'), cuttingOf(inputs.dischargeCutting)],
  ] as const) {
    if (cut && cut.distance_in_mm > 0) rows.push([label, t('spec.cutValue', { distance: format(cut.distance_in_mm, 0), angle: format(cut.angle_deg, 1) })]);
  }
  return rows;
}

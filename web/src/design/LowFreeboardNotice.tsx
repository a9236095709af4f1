import { useTranslation } from 'react-i18next';
import { useNumberFormat } from '../results/format';
import { effectiveMargin, governingFreeboard, lowFreeboard } from './freeboard';
import { useProject } from './ProjectProvider';
import type { Results } from './types';

/** The warning of a calculated run that keeps less freeboard than the project's margin. */
export function LowFreeboardNotice({ results }: { results: Results }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const margin = useProject((s) => s.context.data?.freeboardMargin);
  if (!margin || !lowFreeboard(results, margin)) return null;
  const { minMM, minPercent } = effectiveMargin(margin);
  const governing = governingFreeboard(results)!;
  return (
    <p className="notice notice--warning" role="status">
      {t('results.lowFreeboard', {
        freeboard: format(governing.mm, 0),
        percent: format(governing.percent, 1),
        minMM: format(minMM, 0),
        minPercent: format(minPercent, 1),
      })}
    </p>
  );
}

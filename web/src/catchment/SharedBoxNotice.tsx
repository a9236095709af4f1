import { useTranslation } from 'react-i18next';
import { useProject } from '../design/ProjectProvider';
import { displayRunName } from '../design/runNames';
import { linksOf, trashBoxTarget } from './chains';
import { linkedRuns } from './shared';

/**
 * On a run's results: where its outflow goes when it goes into another
 * run's trash box (the box is listed with that run, once), and which runs
 * flow into its own box.
 */
export function SharedBoxNotice({ runId }: { runId: string }) {
  const { t } = useTranslation();
  const text = useProject((s) => {
    const data = s.context.data;
    if (!data) return '';
    const runs = linkedRuns(data);
    const name = (id: string) => displayRunName(t, data.runs[id]?.name ?? id);
    const self = runs.find((run) => run.id === runId);
    const target = self ? trashBoxTarget(self, new Set(data.order)) : null;
    const feeders = linksOf(runs)
      .filter((link) => link.to === runId && link.via === 'trashBox')
      .map((link) => name(link.from));
    const lines: string[] = [];
    if (target) lines.push(t('discharge.intoRunBox', { run: name(target) }));
    if (feeders.length > 0) lines.push(t('discharge.fedBy', { runs: feeders.join(', ') }));
    return lines.join(' ');
  });
  if (!text) return null;
  return <p className="notice notice--info">{text}</p>;
}

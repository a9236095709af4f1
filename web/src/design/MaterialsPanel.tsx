import { useTranslation } from 'react-i18next';
import { MaterialsTable } from '../results/MaterialsTable';
import { useProject } from './ProjectProvider';
import { displayRunName } from './runNames';

/** The materials list tab of the selected run. */
export function MaterialsPanel() {
  const { t } = useTranslation();
  const run = useProject((s) => (s.context.selectedRunId ? s.context.data?.runs[s.context.selectedRunId] : undefined));
  if (!run?.results) return <p className="muted">{t('results.none')}</p>;
  return (
    <section className="panel" aria-labelledby="materials-title">
      <h3 id="materials-title">{t('materials.title', { run: displayRunName(t, run.name) })}</h3>
      <MaterialsTable results={run.results} />
    </section>
  );
}

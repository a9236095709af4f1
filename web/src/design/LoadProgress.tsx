import { useTranslation } from 'react-i18next';
import { useProject } from './ProjectProvider';

/** Runs loaded of the total while a project loads. */
export function LoadProgress() {
  const { t } = useTranslation();
  const loading = useProject((s) => s.matches('loading') || s.matches('opening') || s.matches('creating'));
  const progress = useProject((s) => s.context.progress);
  const creating = useProject((s) => s.matches('creating'));
  if (!loading) return null;
  return (
    <div className="load-progress" role="status" aria-live="polite">
      {progress ? (
        <>
          <label htmlFor="load-progress-bar">{t('load.progress', { done: progress.done, total: progress.total })}</label>
          <progress id="load-progress-bar" value={progress.done} max={Math.max(progress.total, 1)} />
        </>
      ) : (
        <>
          <span className="splash__spinner" aria-hidden="true" />
          <span>{t(creating ? 'project.creating' : 'load.loading')}</span>
        </>
      )}
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { FreeboardMarginFields } from './FreeboardMarginFields';
import { ProjectDetailsFields } from './ProjectDetailsFields';
import { useProject, useProjectActor, useRunView } from './ProjectProvider';
import { RunList } from './RunList';
import { calculateBlockers } from './runRules';
import { advancedBlockers, isAdvanced } from './advancedRules';
import { ModeSwitch } from './ModeSwitch';
import { useAdvancedMode } from './useAdvancedMode';

/** The project column: project actions, name and details, the run list and the run actions. */
export function ProjectColumn() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const details = useProject((s) => s.context.data?.details);
  const editable = useProject((s) => s.context.data?.editable ?? true);
  const owner = useProject((s) => s.context.data?.owner ?? '');
  const saving = useProject((s) => s.context.inFlight?.kind === 'save');
  const connected = useProject((s) => s.context.connected);
  const liveClosed = useProject((s) => s.context.liveClosed);
  const changedHere = useProject((s) => s.context.dirty);
  const shareable = useProject((s) => !!s.context.data?.saved && !!s.context.data.editable);
  if (!details) return null;

  return (
    <aside className="project-column" aria-label={t('column.title')}>
      <div className="button-row project-column__actions">
        <button type="button" className="button button--quiet button--small" onClick={() => project.send({ type: 'NEW' })}>
          {t('column.new')}
        </button>
        <button type="button" className="button button--quiet button--small" onClick={() => project.send({ type: 'PANEL', panel: 'load' })}>
          {t('column.load')}
        </button>
        <button type="button" className="button button--quiet button--small" disabled={saving} onClick={() => project.send({ type: 'PANEL', panel: 'save' })}>
          {t('column.save')}
        </button>
        <button type="button" className="button button--quiet button--small" disabled={!shareable} onClick={() => project.send({ type: 'SHARE' })}>
          {t('column.share')}
        </button>
      </div>
      <ModeSwitch />

      <div className="field">
        <label htmlFor="project-name">{t('details.name')}</label>
        <input
          id="project-name"
          key={details.name}
          defaultValue={details.name}
          placeholder={t('column.namePlaceholder')}
          onBlur={(event) => {
            if (event.target.value !== details.name) project.send({ type: 'DETAILS', details: { name: event.target.value } });
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur();
          }}
        />
      </div>
      {liveClosed ? (
        <p className="notice notice--error project-column__shared" role="status">
          {t(liveClosed === 'deleted' ? 'column.deletedByOwner' : 'column.noLongerShared')}
        </p>
      ) : (
        !editable && <p className="notice notice--info project-column__shared">{t('column.sharedBy', { owner })}</p>
      )}

      <details className="project-column__details">
        <summary>{t('column.details')}</summary>
        <div className="project-column__detail-fields">
          <ProjectDetailsFields idPrefix="project" details={details} onChange={(changes) => project.send({ type: 'DETAILS', details: changes })} />
          <FreeboardMarginFields />
        </div>
      </details>

      <h2 className="project-column__runs-title">{t('runs.title')}</h2>
      <RunList />
      <RunActions />
      <p className={connected || !editable ? 'live-status live-status--on' : 'live-status'} aria-live="polite">
        {t(liveStatus(editable, connected, changedHere || !!liveClosed))}
      </p>
    </aside>
  );
}

/** The live line under the runs: the user's own project saves as they work; someone else's shows the owner's changes until changed here. */
function liveStatus(editable: boolean, connected: boolean, localOnly: boolean) {
  if (editable) return connected ? 'column.live' : 'column.offline';
  if (localOnly) return 'column.localCopy';
  return connected ? 'column.following' : 'column.offline';
}

function RunActions() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const runId = useProject((s) => s.context.selectedRunId);
  const inputs = useProject((s) => (runId ? s.context.data?.runs[runId]?.inputs : undefined));
  const defaultRainfall = useProject((s) => s.context.data?.defaultRainfall ?? null);
  const view = useRunView(runId);
  const mode = useAdvancedMode();
  const blockers = inputs
    ? [...calculateBlockers(inputs, defaultRainfall), ...(isAdvanced(inputs, mode) && inputs.selectedSystem ? advancedBlockers(inputs) : [])]
    : ['noSystem' as const];
  const canCalculate = blockers.length === 0 && !view.calculating;
  const hasInputs = !!inputs && Object.keys(inputs).length > 0;

  return (
    <div className="run-actions">
      <button
        type="button"
        className={`button button--primary run-actions__calculate${view.highlight && canCalculate ? ' button--attention' : ''}`}
        disabled={!canCalculate}
        aria-describedby={blockers.length > 0 ? 'calculate-hint' : undefined}
        onClick={() => project.send({ type: 'CALCULATE' })}
      >
        {view.calculating ? t('column.calculating') : t('column.calculate')}
      </button>
      {blockers.length > 0 && !view.calculating && (
        <p id="calculate-hint" className="run-actions__hint">
          {t(`calc.blocker.${blockers[0]!}`)}
        </p>
      )}
      <div className="run-actions__grid">
        <button type="button" className="button button--quiet button--small" disabled={!view.hasResults} onClick={() => project.send({ type: 'ADD_RUN' })}>
          {t('column.addRun')}
        </button>
        <button type="button" className="button button--quiet button--small" disabled={!view.hasResults} onClick={() => project.send({ type: 'PANEL', panel: 'notes' })}>
          {t('column.addNotes')}
        </button>
        <button type="button" className="button button--quiet button--small" disabled={!hasInputs || view.calculating} onClick={() => project.send({ type: 'RESET' })}>
          {t('column.reset')}
        </button>
        <button type="button" className="button button--quiet button--small" disabled={!view.upToDate} onClick={() => project.send({ type: 'DUPLICATE' })}>
          {t('column.duplicate')}
        </button>
      </div>
    </div>
  );
}

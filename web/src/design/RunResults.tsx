import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/ServicesContext';
import { CrossSection } from '../results/CrossSection';
import { CatchmentDrawing } from '../catchment/CatchmentFields';
import { ProfileItems } from '../catchment/ProfileItems';
import { SharedBoxNotice } from '../catchment/SharedBoxNotice';
import { SpecificationTable } from '../results/SpecificationTable';
import { useProject, useProjectActor, useRunView } from './ProjectProvider';
import { orderKey, useDocument } from './useDocument';
import { effectiveInputs, isPointProduct } from './runRules';
import { LowFreeboardNotice } from './LowFreeboardNotice';

/** The design run tab: specification, hydraulic profile, cross-section and notes of the selected run. */
export function RunResults() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const runId = useProject((s) => s.context.selectedRunId);
  const run = useProject((s) => (runId ? s.context.data?.runs[runId] : undefined));
  const rainfallUnits = useProject((s) => s.context.data?.rainfallUnits ?? 'mm/h');
  const defaultRainfall = useProject((s) => s.context.data?.defaultRainfall ?? null);
  const zeroAtDischarge = useSession((s) => s.context.user?.zero_at_discharge === true);
  const view = useRunView(runId);
  const refreshing = useProject((s) => (runId ? s.context.refreshing.includes(runId) : false));
  if (!run?.results) return <p className="muted">{t('results.none')}</p>;
  const results = run.results;
  const point = isPointProduct(run.inputs.selectedSystem);

  return (
    <div className="run-results">
      {view.state === 'changed' && <p className="notice notice--info">{t('results.stale')}</p>}
      {results.overflowed && (
        <p className="notice notice--error" role="status">
          {t('results.flooded')}
        </p>
      )}
      <LowFreeboardNotice results={results} />
      <SharedBoxNotice runId={run.id} />
      <div className="run-results__top">
        <section className="panel" aria-labelledby="spec-title">
          <h3 id="spec-title">{t('results.specification')}</h3>
          <SpecificationTable inputs={run.inputs} results={results} rainfallUnits={rainfallUnits} defaultRainfall={defaultRainfall} />
        </section>
        <div className="run-results__side">
          {!point && (
            <section className="panel" aria-labelledby="section-title">
              <h3 id="section-title">{t('results.crossSection')}</h3>
              <CrossSection results={results} />
            </section>
          )}
          <NotesPanel runId={run.id} notes={run.notes} onClear={() => project.send({ type: 'NOTES', runId: run.id, notes: '' })} />
        </div>
      </div>
      {!point && (
        <section className="panel run-results__profile" aria-labelledby="profile-title">
          <h3 id="profile-title">{t('results.profile')}</h3>
          <ProfileItems run={run} zeroAtDischarge={zeroAtDischarge} refreshing={refreshing} />
          <ProfileDownload runId={run.id} />
        </section>
      )}
      {!point && (
        <section className="panel" aria-labelledby="catchment-title">
          <h3 id="catchment-title">{t('catchment.drawingTitle')}</h3>
          <CatchmentDrawing run={effectiveInputs(run.inputs, defaultRainfall)} />
        </section>
      )}
    </div>
  );
}

/** The profile as a CSV file, in the interface language's spreadsheet format. */
function ProfileDownload({ runId }: { runId: string }) {
  const { t, i18n } = useTranslation();
  const index = useProject((s) => s.context.data?.order.indexOf(runId) ?? -1);
  const documents = useDocument();
  if (index < 0) return null;
  const kind = `hydraulics/${index + 1}`;
  const busy = documents.busyWith === orderKey('csv', kind);
  return (
    <div className="profile__download">
      <button type="button" className="button button--quiet button--small" disabled={documents.busyWith !== null} aria-busy={busy} onClick={() => documents.start({ format: 'csv', kind, language: i18n.language })}>
        {busy ? t('documents.making') : t('results.profileCSV')}
      </button>
      <span role="status" className="documents__status">
        {documents.failure ? t('documents.failed', { format: documents.failedFormat, reason: documents.failure }) : ''}
      </span>
    </div>
  );
}

function NotesPanel({ runId, notes, onClear }: { runId: string; notes: string; onClear: () => void }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="panel" aria-labelledby={`notes-${runId}`}>
      <h3 id={`notes-${runId}`}>{t('results.notes')}</h3>
      {notes ? <p className="run-results__notes">{notes}</p> : <p className="muted">{t('results.noNotes')}</p>}
      <div className="button-row">
        <button type="button" className="button button--quiet button--small" onClick={() => project.send({ type: 'PANEL', panel: 'notes' })}>
          {notes ? t('notes.edit') : t('column.addNotes')}
        </button>
        {notes &&
          (confirming ? (
            <>
              <button
                type="button"
                className="button button--danger button--small"
                onClick={() => {
                  setConfirming(false);
                  onClear();
                }}
              >
                {t('notes.confirmClear')}
              </button>
              <button type="button" className="button button--quiet button--small" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </button>
            </>
          ) : (
            <button type="button" className="button button--quiet button--small" onClick={() => setConfirming(true)}>
              {t('notes.clear')}
            </button>
          ))}
      </div>
    </section>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/ServicesContext';
import { LanguageOptions } from '../components/LanguageSelect';
import { ProjectDetailsFields } from './ProjectDetailsFields';
import { useProject, useProjectActor } from './ProjectProvider';
import { displayRunName } from './runNames';
import { isPointProduct } from './runRules';
import { orderKey, useDocument, type DocumentOrder } from './useDocument';

const PROJECT_DOCUMENTS = ['introduction', 'materials', 'information', 'all'] as const;

/** The documents tab: the project details the documents carry, their language, and the downloads. */
export function DocumentsPanel() {
  const { t, i18n } = useTranslation();
  const project = useProjectActor();
  const data = useProject((s) => s.context.data);
  const [language, setLanguage] = useState(i18n.language);
  const documents = useDocument();
  // Spec: RTF downloads come with advanced mode.
  const rtf = useSession((s) => s.context.user?.has_advanced_mode ?? false);
  if (!data) return null;
  const runs = data.order.map((id) => data.runs[id]).filter((run) => run !== undefined);
  const allCalculated = runs.length > 0 && runs.every((run) => run.results?.calculated);

  return (
    <section className="panel" aria-labelledby="documents-title">
      <h3 id="documents-title">{t('documents.title')}</h3>
      <p className="form__intro">{t('documents.intro')}</p>
      <div className="design-form__grid">
        <ProjectDetailsFields idPrefix="documents" details={data.details} onChange={(changes) => project.send({ type: 'DETAILS', details: changes })} includeName />
        <div className="field">
          <label htmlFor="documents-language">{t('documents.language')}</label>
          <select id="documents-language" value={language} onChange={(event) => setLanguage(event.target.value)}>
            <LanguageOptions />
          </select>
        </div>
      </div>

      <h4>{t('documents.pdfTitle')}</h4>
      <p className="form__intro">{allCalculated ? t('documents.pdfIntro') : t('documents.calculateFirst')}</p>
      <ul className="documents__list">
        {PROJECT_DOCUMENTS.map((kind) => (
          <li key={kind}>
            <DownloadButton documents={documents} order={{ format: 'pdf', kind, language }} label={t(`documents.kind.${kind}`)} enabled={allCalculated} />
          </li>
        ))}
      </ul>

      {rtf && (
        <>
          <h4>{t('documents.rtfTitle')}</h4>
          <ul className="documents__list">
            {PROJECT_DOCUMENTS.map((kind) => (
              <li key={kind}>
                <DownloadButton documents={documents} order={{ format: 'rtf', kind, language }} label={t('documents.rtfKind', { kind: t(`documents.kind.${kind}`) })} enabled={allCalculated} />
              </li>
            ))}
          </ul>
        </>
      )}

      <h4>{t('documents.runsTitle')}</h4>
      <ul className="documents__runs">
        {runs.map((run, index) => {
          const kind = `hydraulics/${index + 1}`;
          const calculated = !!run.results?.calculated;
          return (
            <li key={run.id}>
              <span className="documents__run-name">{displayRunName(t, run.name)}</span>
              <DownloadButton documents={documents} order={{ format: 'pdf', kind, language }} label={t('documents.hydraulicsPDF')} enabled={allCalculated} />
              {rtf && <DownloadButton documents={documents} order={{ format: 'rtf', kind, language }} label={t('documents.hydraulicsRTF')} enabled={allCalculated} />}
              {/* A gully has no profile to download. */}
              {!isPointProduct(run.inputs.selectedSystem) && <DownloadButton documents={documents} order={{ format: 'csv', kind, language }} label={t('documents.profileCSV', { name: displayRunName(t, run.name) })} enabled={calculated} />}
            </li>
          );
        })}
      </ul>
      <p role="status" className="documents__status">
        {documents.failure ? t('documents.failed', { format: documents.failedFormat, reason: documents.failure }) : ''}
      </p>
    </section>
  );
}

/** One download: its label, or progress while the file is made. */
function DownloadButton({ documents, order, label, enabled }: { documents: ReturnType<typeof useDocument>; order: DocumentOrder; label: string; enabled: boolean }) {
  const { t } = useTranslation();
  const busy = documents.busyWith === orderKey(order.format, order.kind);
  return (
    <button type="button" className="button button--quiet" disabled={!enabled || documents.busyWith !== null} aria-busy={busy} onClick={() => documents.start(order)}>
      {busy ? t('documents.making') : label}
    </button>
  );
}

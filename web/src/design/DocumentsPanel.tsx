import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, toBcp47 } from '../i18n/languages';
import { ProjectDetailsFields } from './ProjectDetailsFields';
import { useProject, useProjectActor } from './ProjectProvider';
import { isPointProduct } from './runRules';
import { useProfileCSV } from './useProfileCSV';

/** The documents tab: the project details the documents carry, their language, and the downloads. */
export function DocumentsPanel() {
  const { t, i18n } = useTranslation();
  const project = useProjectActor();
  const data = useProject((s) => s.context.data);
  const [language, setLanguage] = useState(i18n.language);
  const profile = useProfileCSV();
  if (!data) return null;
  const runs = data.order.map((id) => data.runs[id]).filter((run) => run !== undefined);
  return (
    <section className="panel" aria-labelledby="documents-title">
      <h3 id="documents-title">{t('documents.title')}</h3>
      <p className="form__intro">{t('documents.intro')}</p>
      <div className="design-form__grid">
        <ProjectDetailsFields idPrefix="documents" details={data.details} onChange={(changes) => project.send({ type: 'DETAILS', details: changes })} includeName />
        <div className="field">
          <label htmlFor="documents-language">{t('documents.language')}</label>
          <select id="documents-language" value={language} onChange={(event) => setLanguage(event.target.value)}>
            {LANGUAGES.map((option) => (
              <option key={option.code} value={option.code} lang={toBcp47(option.code)}>
                {option.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <h4>{t('documents.profiles')}</h4>
      <p className="form__intro">{t('documents.profilesIntro')}</p>
      <ul className="documents__list">
        {runs.map((run, index) => {
          // A gully has no profile to download.
          if (isPointProduct(run.inputs.selectedSystem)) return null;
          const busy = profile.busyWith === index + 1;
          return (
            <li key={run.id}>
              <button
                type="button"
                className="button button--quiet"
                disabled={!run.results?.calculated || profile.busyWith !== null}
                aria-busy={busy}
                onClick={() => profile.start(index + 1, language)}
              >
                {busy ? t('documents.making') : t('documents.profileCSV', { name: run.name })}
              </button>
            </li>
          );
        })}
      </ul>
      <p role="status" className="documents__status">
        {profile.failure ? t('documents.failed', { reason: profile.failure }) : ''}
      </p>
    </section>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, toBcp47 } from '../i18n/languages';
import { ProjectDetailsFields } from './ProjectDetailsFields';
import { useProject, useProjectActor } from './ProjectProvider';

/** The documents tab: the project details the documents carry, and their language. */
export function DocumentsPanel() {
  const { t, i18n } = useTranslation();
  const project = useProjectActor();
  const details = useProject((s) => s.context.data?.details);
  const [language, setLanguage] = useState(i18n.language);
  if (!details) return null;
  return (
    <section className="panel" aria-labelledby="documents-title">
      <h3 id="documents-title">{t('documents.title')}</h3>
      <p className="form__intro">{t('documents.intro')}</p>
      <div className="design-form__grid">
        <ProjectDetailsFields idPrefix="documents" details={details} onChange={(changes) => project.send({ type: 'DETAILS', details: changes })} includeName />
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
    </section>
  );
}

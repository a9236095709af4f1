import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/http';
import { useServices } from '../app/ServicesContext';
import { LANGUAGES, toBcp47 } from '../i18n/languages';
import { SessionExpiredError } from '../session/authedSend';
import { documentRequest, saveFile } from './documentRequest';
import { ProjectDetailsFields } from './ProjectDetailsFields';
import { useProject, useProjectActor } from './ProjectProvider';

/** The documents tab: the project details the documents carry, their language, and the downloads. */
export function DocumentsPanel() {
  const { t, i18n } = useTranslation();
  const project = useProjectActor();
  const { drainage } = useServices();
  const data = useProject((s) => s.context.data);
  const [language, setLanguage] = useState(i18n.language);
  const profile = useMutation({
    mutationFn: async (runIndex: number) => {
      if (!data) throw new Error('no project');
      const file = await drainage.profileCSV(language, runIndex, documentRequest(data));
      saveFile(file.blob, file.filename);
    },
  });
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
          const busy = profile.isPending && profile.variables === index + 1;
          return (
            <li key={run.id}>
              <button
                type="button"
                className="button button--quiet"
                disabled={!run.results?.calculated || profile.isPending}
                aria-busy={busy}
                onClick={() => profile.mutate(index + 1)}
              >
                {busy ? t('documents.making') : t('documents.profileCSV', { name: run.name })}
              </button>
            </li>
          );
        })}
      </ul>
      <p role="status" className="documents__status">
        {profile.isError && !(profile.error instanceof SessionExpiredError) ? t('documents.failed', { reason: reason(profile.error) }) : ''}
      </p>
    </section>
  );
}

/** The server's readable reason, when it gave one. */
function reason(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body && 'error' in error.body) {
    return String((error.body as { error: unknown }).error);
  }
  return error instanceof Error ? error.message : String(error);
}

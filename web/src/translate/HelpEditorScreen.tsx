import { useQuery } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { LanguageOptions } from '../components/LanguageSelect';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { topicTitle } from '../help/topics';
import { LANGUAGES } from '../i18n/languages';
import { editorMachine } from './editorMachine';
import { startLanguage } from './rights';

/** Waits until a value has stopped changing for a moment. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The help editor: a topic's Markdown in the chosen language beside the
 * English one, with a preview rendered by the server exactly as the help
 * page will show it.
 */
export function HelpEditorScreen() {
  const { t, i18n } = useTranslation();
  const services = useServices();
  const user = useSession((snapshot) => snapshot.context.user);
  useDocumentTitle(t('nav.helpTranslations'));
  const [snapshot, send] = useMachine(editorMachine, {
    input: { api: services.translations, kind: 'help', language: startLanguage(user?.language), scope: () => true },
  });
  const { rows, language, error, notice, selected } = snapshot.context;
  const busy = !snapshot.matches('ready') && !snapshot.matches('failed');
  const current = rows.find((row) => row.key === (selected ?? rows[0]?.key)) ?? null;
  const [draft, setDraft] = useState<{ key: string; language: string; text: string } | null>(null);
  // A new topic or language starts from the text the server holds.
  const text = draft && current && draft.key === current.key && draft.language === language ? draft.text : (current?.text ?? '');
  const source = useSettled(text || current?.english || '', 300);
  const preview = useQuery({
    queryKey: ['help-preview', source],
    queryFn: () => services.translations.preview(source),
    enabled: source !== '',
    staleTime: Infinity,
  });
  const languageName = LANGUAGES.find((l) => l.code === language)?.name ?? language;

  return (
    <section className="translate translate--help" aria-labelledby="help-editor-title">
      <div className="translate__head">
        <h1 id="help-editor-title">{t('nav.helpTranslations')}</h1>
        <div className="translate__tools">
          <label className="translate__field">
            {t('translate.language')}
            <select value={language} onChange={(e) => send({ type: 'LANGUAGE', language: e.target.value })} disabled={busy}>
              <LanguageOptions />
            </select>
          </label>
        </div>
      </div>
      <div className="translate__status" role="status" aria-live="polite">
        {busy && <span>{t('translate.saving')}</span>}
        {!busy && notice && <span className="translate__notice">{t(notice.key as 'translate.saved', notice.values)}</span>}
      </div>
      {error && (
        <div className="notice notice--error translate__error" role="alert">
          {error}
        </div>
      )}
      <div className="help-editor">
        <ul className="help-editor__topics" aria-label={t('help.topics')}>
          {rows.map((row) => (
            <li key={row.key}>
              <button
                type="button"
                className={`help-editor__topic${row.key === current?.key ? ' help-editor__topic--current' : ''}`}
                aria-pressed={row.key === current?.key}
                onClick={() => send({ type: 'SELECT', key: row.key })}
              >
                {topicTitle(t, i18n, row.key, row.key)}
                <span className="help-editor__state">
                  {row.text.trim() === '' ? t('translate.helpFallsBack') : row.stale ? t('translate.stale') : row.overridden ? t('translate.changedBy', { name: row.by_name ?? '' }) : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {current && (
          <div className="help-editor__edit">
            <label htmlFor="help-markdown">{t('translate.markdownIn', { language: languageName })}</label>
            <textarea
              id="help-markdown"
              value={text}
              rows={18}
              onChange={(e) => setDraft({ key: current.key, language, text: e.target.value })}
              placeholder={current.english}
            />
            <div className="help-editor__actions">
              <button
                type="button"
                className="button button--primary button--small"
                disabled={busy || text === current.text || text.trim() === ''}
                onClick={() => send({ type: 'EDIT', key: current.key, text })}
              >
                {t('translate.save')}
              </button>
              {current.overridden && (
                <button type="button" className="button button--quiet button--small" disabled={busy} onClick={() => send({ type: 'RESET', key: current.key })}>
                  {t('translate.reset')}
                </button>
              )}
            </div>
            <details className="help-editor__english">
              <summary>{t('translate.englishText')}</summary>
              <pre lang="en">{current.english}</pre>
            </details>
          </div>
        )}
        <div className="help-editor__preview" aria-label={t('translate.preview')}>
          <h2>{t('translate.preview')}</h2>
          {text === '' && current && <p className="notice">{t('translate.helpFallsBack')}</p>}
          {/* Rendered by the server's Markdown renderer, without raw HTML. */}
          {preview.data && <div className="help__text" dangerouslySetInnerHTML={{ __html: preview.data.html }} />}
        </div>
      </div>
    </section>
  );
}

import {
  ClientSideRowModelModule,
  LargeTextEditorModule,
  ModuleRegistry,
  RowAutoHeightModule,
  TextEditorModule,
  ValidationModule,
  themeQuartz,
  type CellValueChangedEvent,
  type ColDef,
  type Module,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMachine } from '@xstate/react';
import { useMemo, useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { LanguageOptions } from '../components/LanguageSelect';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { LANGUAGES } from '../i18n/languages';
import type { TextRow } from './api';
import { editorMachine, isMissing, visibleRows, type RowFilter } from './editorMachine';
import { fillPlaceholders } from './preview';
import { startLanguage } from './rights';

const gridModules: Module[] = [ClientSideRowModelModule, TextEditorModule, LargeTextEditorModule, RowAutoHeightModule];
if (import.meta.env.DEV) gridModules.push(ValidationModule);
ModuleRegistry.registerModules(gridModules);

const theme = themeQuartz.withParams({ accentColor: '#0b5fa5', fontFamily: 'inherit', headerFontWeight: 600, borderRadius: 8 });

/** The two message editors: the calculator's screens, and the documents' texts. */
export type MessageScope = 'calculator' | 'documents';

const inScope: Record<MessageScope, (key: string) => boolean> = {
  documents: (key) => key.startsWith('documents.'),
  calculator: (key) => !key.startsWith('documents.'),
};

/**
 * A grid of a language's texts beside the English ones: filters, search,
 * inline editing checked by the server, a preview of the selected text,
 * export and import of the language as a JSON file.
 */
export function TranslationScreen({ scope }: { scope: MessageScope }) {
  const { t } = useTranslation();
  const services = useServices();
  const user = useSession((snapshot) => snapshot.context.user);
  useDocumentTitle(t(scope === 'documents' ? 'nav.documentTranslations' : 'nav.calculatorTranslations'));
  const [snapshot, send] = useMachine(editorMachine, {
    input: {
      api: services.translations,
      kind: 'message',
      language: startLanguage(user?.language),
      scope: inScope[scope],
      onChanged: () => void services.liveCatalogue?.check(),
    },
  });
  const { rows, language, filter, search, error, notice, selected, pluralForms } = snapshot.context;
  const busy = !snapshot.matches('ready') && !snapshot.matches('failed');
  const shown = useMemo(() => visibleRows(rows, language, filter, search), [rows, language, filter, search]);
  const current = rows.find((row) => row.key === selected) ?? null;
  const languageName = LANGUAGES.find((l) => l.code === language)?.name ?? language;
  const fileInput = useRef<HTMLInputElement>(null);

  const columns = useMemo<ColDef<TextRow>[]>(
    () => [
      { field: 'key', headerName: t('translate.key'), width: 230, cellClass: 'translate-grid__key' },
      { field: 'english', headerName: 'English', flex: 1, wrapText: true, autoHeight: true },
      {
        field: 'text',
        headerName: languageName,
        flex: 1,
        wrapText: true,
        autoHeight: true,
        editable: true,
        cellEditor: 'agLargeTextCellEditor',
        cellEditorPopup: true,
        cellEditorParams: { maxLength: 8192, rows: 6, cols: 60 },
        cellClass: (params) => (params.data && isMissing(params.data, language) ? 'translate-grid__missing' : ''),
      },
      {
        colId: 'status',
        headerName: t('translate.status'),
        width: 170,
        valueGetter: ({ data }) => {
          if (!data) return '';
          const parts: string[] = [];
          if (data.stale) parts.push(t('translate.stale'));
          if (data.overridden) parts.push(t('translate.changedBy', { name: data.by_name ?? '' }));
          if (isMissing(data, language)) parts.push(t('translate.missing'));
          return parts.join(' · ');
        },
        wrapText: true,
        autoHeight: true,
      },
    ],
    [t, language, languageName],
  );

  function edited(event: CellValueChangedEvent<TextRow>) {
    if (!event.data || event.newValue === event.oldValue) return;
    send({ type: 'EDIT', key: event.data.key, text: String(event.newValue ?? '') });
  }

  function exportFile() {
    const texts = Object.fromEntries(rows.map((row) => [row.key, row.text]));
    const blob = new Blob([JSON.stringify(texts, null, 2) + '\n'], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${scope}-${language}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      const parsed: unknown = JSON.parse(await file.text());
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      // Only the texts that differ from what the grid shows are sent.
      const texts: Record<string, string> = {};
      for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
        if (typeof value !== 'string') throw new Error('not a text');
        if (rows.find((row) => row.key === key)?.text !== value) texts[key] = value;
      }
      send({ type: 'IMPORT', texts });
    } catch {
      send({ type: 'IMPORT.INVALID' });
    }
  }

  return (
    <section className="translate" aria-labelledby="translate-title">
      <div className="translate__head">
        <h1 id="translate-title">{t(scope === 'documents' ? 'nav.documentTranslations' : 'nav.calculatorTranslations')}</h1>
        <div className="translate__tools">
          <label className="translate__field">
            {t('translate.language')}
            <select value={language} onChange={(e) => send({ type: 'LANGUAGE', language: e.target.value })} disabled={busy}>
              <LanguageOptions />
            </select>
          </label>
          <label className="translate__field">
            {t('translate.show')}
            <select value={filter} onChange={(e) => send({ type: 'FILTER', filter: e.target.value as RowFilter })}>
              <option value="all">{t('translate.filterAll')}</option>
              <option value="missing">{t('translate.filterMissing')}</option>
              <option value="stale">{t('translate.filterStale')}</option>
              <option value="changed">{t('translate.filterChanged')}</option>
            </select>
          </label>
          <label className="translate__field translate__search">
            {t('translate.search')}
            <input type="search" value={search} onChange={(e) => send({ type: 'SEARCH', search: e.target.value })} />
          </label>
          <button type="button" className="button button--quiet button--small" onClick={exportFile} disabled={rows.length === 0}>
            {t('translate.export')}
          </button>
          <button type="button" className="button button--quiet button--small" onClick={() => fileInput.current?.click()} disabled={busy}>
            {t('translate.import')}
          </button>
          <input ref={fileInput} type="file" accept="application/json,.json" hidden onChange={(e) => void importFile(e)} data-testid="translate-import" />
        </div>
      </div>
      <p className="translate__counts">
        {t('translate.counts', { shown: shown.length, total: rows.length })}
        {pluralForms.length > 0 && <> · {t('translate.pluralForms', { forms: pluralForms.join(', ') })}</>}
      </p>
      <div className="translate__status" role="status" aria-live="polite">
        {busy && <span>{t('translate.saving')}</span>}
        {!busy && notice && <span className="translate__notice">{t(notice.key as 'translate.saved', notice.values)}</span>}
      </div>
      {error && (
        <div className="notice notice--error translate__error" role="alert">
          {error}
          <button type="button" className="button button--quiet button--small" onClick={() => send({ type: 'DISMISS' })}>
            {t('common.close')}
          </button>
        </div>
      )}
      <div className="translate__body">
        <div className="translate__grid">
          <AgGridReact<TextRow>
            theme={theme}
            rowData={shown}
            columnDefs={columns}
            getRowId={({ data }) => data.key}
            onCellValueChanged={edited}
            onCellFocused={(event) => {
              const row = event.rowIndex == null ? null : event.api.getDisplayedRowAtIndex(event.rowIndex);
              if (row?.data) send({ type: 'SELECT', key: row.data.key });
            }}
            stopEditingWhenCellsLoseFocus
            singleClickEdit={false}
            loading={snapshot.matches('loading') && rows.length === 0}
          />
        </div>
        <aside className="translate__preview" aria-label={t('translate.preview')}>
          <h2>{t('translate.preview')}</h2>
          {current ? (
            <>
              <p className="translate__preview-key">{current.key}</p>
              <p className="translate__preview-label">English</p>
              <p className="translate__preview-text" lang="en">
                {fillPlaceholders(current.english)}
              </p>
              <p className="translate__preview-label">{languageName}</p>
              <p className="translate__preview-text">{fillPlaceholders(current.text)}</p>
              {current.placeholders.length > 0 && (
                <p className="translate__preview-note">{t('translate.placeholders', { list: current.placeholders.map((p) => `{{${p}}}`).join(' ') })}</p>
              )}
              {current.overridden && (
                <>
                  <p className="translate__preview-note">{t('translate.shipped', { text: current.shipped })}</p>
                  <button type="button" className="button button--quiet button--small" onClick={() => send({ type: 'RESET', key: current.key })} disabled={busy}>
                    {t('translate.reset')}
                  </button>
                </>
              )}
            </>
          ) : (
            <p className="translate__preview-note">{t('translate.previewHint')}</p>
          )}
        </aside>
      </div>
    </section>
  );
}

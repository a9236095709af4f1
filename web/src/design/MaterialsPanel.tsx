import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { MaterialsTable } from '../results/MaterialsTable';
import { materialGroups, projectTotal, runLines, toCSV, toTSV, type ExportHeader, type ExportRow, type RunMaterials } from '../results/materialsExport';
import { materialText } from './catalogueText';
import { saveFile } from './documentRequest';
import type { ProjectData } from './projectModel';
import { useProject } from './ProjectProvider';
import { displayRunName } from './runNames';

type Scope = 'run' | 'project';

/**
 * The materials list tab: the selected run's materials, or the whole
 * project's (the total summed by article, then each calculated run), with
 * a CSV download and a copy for pasting into a spreadsheet.
 */
export function MaterialsPanel() {
  const { t, i18n } = useTranslation();
  const [scope, setScope] = useState<Scope>('run');
  const [copied, setCopied] = useState<'done' | 'failed' | null>(null);
  const data = useProject((s) => s.context.data);
  const run = useProject((s) => (s.context.selectedRunId ? s.context.data?.runs[s.context.selectedRunId] : undefined));
  if (!data || !run?.results) return <p className="muted">{t('results.none')}</p>;

  const runs = calculatedRuns(data, t);
  const uncalculated = data.order.length - runs.length;
  const name = displayRunName(t, run.name);
  const rows = scope === 'run' ? exportRows(t, [{ name, results: run.results, lines: runLines(run.results) }], null) : exportRows(t, runs, t('materials.projectTotal'));
  const header: ExportHeader = { run: t('materials.run'), han: t('materials.han'), description: t('materials.description'), length: `${t('materials.length')} (mm)`, count: t('materials.count') };
  const fileBase = `${data.details.name.trim() || t('materials.fileProject')}-${scope === 'run' ? name : t('materials.fileAll')}`.replace(/[^\p{L}\p{N}]+/gu, '-');

  async function copy() {
    try {
      await navigator.clipboard.writeText(toTSV(header, rows));
      setCopied('done');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <section className="panel materials-panel" aria-labelledby="materials-title">
      <div className="materials-panel__toolbar">
        <fieldset className="materials-panel__scope">
          <legend className="visually-hidden">{t('materials.scope')}</legend>
          {(['run', 'project'] as const).map((s) => (
            <label key={s}>
              <input type="radio" name="materials-scope" value={s} checked={scope === s} onChange={() => { setScope(s); setCopied(null); }} />
              {s === 'run' ? t('materials.scopeRun', { run: name }) : t('materials.scopeProject')}
            </label>
          ))}
        </fieldset>
        <div className="button-row">
          <button type="button" className="button button--quiet button--small" onClick={() => saveFile(new Blob([toCSV(header, rows, i18n.language)], { type: 'text/csv;charset=utf-8' }), `${fileBase}-materials.csv`)}>
            {t('materials.downloadCSV')}
          </button>
          <button type="button" className="button button--quiet button--small" onClick={() => void copy()}>
            {t('materials.copy')}
          </button>
        </div>
        <p className="materials-panel__status" role="status">
          {copied && t(copied === 'done' ? 'materials.copied' : 'materials.copyFailed')}
        </p>
      </div>
      {scope === 'run' ? (
        <>
          <h3 id="materials-title">{t('materials.title', { run: name })}</h3>
          <MaterialsTable lists={materialGroups(run.results)} caption={t('materials.title', { run: name })} />
        </>
      ) : (
        <>
          <h3 id="materials-title">{t('materials.projectTitle')}</h3>
          {uncalculated > 0 && <p className="notice notice--info">{t('materials.uncalculated', { count: uncalculated })}</p>}
          <h4>{t('materials.projectTotal')}</h4>
          <MaterialsTable lists={[{ list: null, lines: projectTotal(runs) }]} caption={t('materials.projectTotal')} />
          {runs.map((r) => (
            <section key={r.name} className="materials-panel__run">
              <h4>{r.name}</h4>
              <MaterialsTable lists={materialGroups(r.results)} caption={t('materials.title', { run: r.name })} />
            </section>
          ))}
        </>
      )}
    </section>
  );
}

/** The runs with results, in the project's order, named as the screen names them. */
function calculatedRuns(data: ProjectData, t: TFunction): RunMaterials[] {
  return data.order.flatMap((id) => {
    const r = data.runs[id];
    return r?.results?.calculated ? [{ name: displayRunName(t, r.name), results: r.results, lines: runLines(r.results) }] : [];
  });
}

/** The export's rows: the total first (when named), then each run's lines. */
function exportRows(t: TFunction, runs: RunMaterials[], totalName: string | null): ExportRow[] {
  const row = (run: string) => (line: RunMaterials['lines'][number]): ExportRow => ({ run, han: line.HAN, description: materialText(t, line), lengthMM: line.length_mm ?? null, count: line.count });
  const total = totalName === null ? [] : projectTotal(runs).map(row(totalName));
  return [...total, ...runs.flatMap((r) => r.lines.map(row(r.name)))];
}

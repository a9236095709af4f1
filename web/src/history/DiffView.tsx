import { useTranslation } from 'react-i18next';
import { displayRunName } from '../design/runNames';
import type { Results } from '../design/types';
import { useNumberFormat } from '../results/format';
import { fieldLabel, RESULT_ROWS, valueText, type Translate } from './describe';
import type { FieldChange, RunDiff, VersionDiff } from './types';
import './history.css';

/** What changed from one version to another: the project's details, then each run's fields and results. */
export function DiffView({ diff }: { diff: VersionDiff }) {
  const { t } = useTranslation();
  const changed = diff.details.length > 0 || diff.runs.some((run) => run.status !== 'same');
  return (
    <section className="diff" aria-labelledby="diff-title">
      <h2 id="diff-title" className="diff__title">
        {t('diff.title', { from: diff.from, to: diff.to })}
      </h2>
      {!changed && <p className="muted">{t('diff.none')}</p>}
      {diff.details.length > 0 && (
        <section className="diff__block" aria-label={t('diff.details')}>
          <h3>{t('diff.details')}</h3>
          <FieldTable fields={diff.details} from={diff.from} to={diff.to} detail />
        </section>
      )}
      {diff.runs.map((run) => (
        <RunBlock key={run.id} run={run} from={diff.from} to={diff.to} />
      ))}
    </section>
  );
}

function RunBlock({ run, from, to }: { run: RunDiff; from: number; to: number }) {
  const { t } = useTranslation();
  const name = displayRunName(t, run.name);
  const states = run.state_before !== run.state_after;
  return (
    <section className={`diff__block diff__block--${run.status}`} aria-label={name}>
      <h3>
        {name} <span className={`diff__status diff__status--${run.status}`}>{t(`diff.status.${run.status}`)}</span>
      </h3>
      {states && run.state_before && run.state_after && (
        <p className="diff__state">
          {t('diff.state', { before: t(`runs.state.${run.state_before}`), after: t(`runs.state.${run.state_after}`) })}
        </p>
      )}
      {run.fields.length > 0 && <FieldTable fields={run.fields} from={from} to={to} />}
      {(run.results_before || run.results_after) && <ResultTable before={run.results_before} after={run.results_after} from={from} to={to} />}
    </section>
  );
}

function FieldTable({ fields, from, to, detail = false }: { fields: FieldChange[]; from: number; to: number; detail?: boolean }) {
  const { t } = useTranslation();
  const translate = t as unknown as Translate;
  const format = useNumberFormat();
  const fmt = (n: number, digits: number) => format(n, digits);
  return (
    <table className="diff__table">
      <thead>
        <tr>
          <th scope="col">{t('diff.field')}</th>
          <th scope="col">{t('diff.version', { version: from })}</th>
          <th scope="col">{t('diff.version', { version: to })}</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field.field}>
            <th scope="row">{fieldLabel(translate, field.field, detail)}</th>
            <td className="diff__before">{valueText(translate, field.before, fmt, detail ? undefined : field.field)}</td>
            <td className="diff__after">{valueText(translate, field.after, fmt, detail ? undefined : field.field)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ResultTable({ before, after, from, to }: { before: Partial<Results> | null; after: Partial<Results> | null; from: number; to: number }) {
  const { t } = useTranslation();
  const translate = t as unknown as Translate;
  const format = useNumberFormat();
  const cell = (results: Partial<Results> | null, key: keyof Results, unit: string | undefined, digits: number) => {
    if (!results) return t('diff.empty');
    const value = results[key];
    if (value === undefined || value === null) return t('diff.empty');
    if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
    if (typeof value === 'number') return unit ? `${format(value, digits)} ${unit}` : format(value, digits);
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
  const rows = RESULT_ROWS.filter((row) => (before && row.key in before) || (after && row.key in after));
  return (
    <table className="diff__table diff__table--results">
      <caption>{t('diff.results')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('diff.field')}</th>
          <th scope="col">{t('diff.version', { version: from })}</th>
          <th scope="col">{t('diff.version', { version: to })}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const a = cell(before, row.key, row.unit, row.digits);
          const b = cell(after, row.key, row.unit, row.digits);
          return (
            <tr key={row.key} className={a !== b ? 'diff__row--changed' : undefined}>
              <th scope="row">{translate(row.label)}</th>
              <td className="diff__before">{a}</td>
              <td className="diff__after">{b}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

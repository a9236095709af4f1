import { useQuery } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import type { ColDef } from 'ag-grid-community';
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { Dialog } from '../components/Dialog';
import { Notice } from '../components/Notice';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { calculationsMachine } from './calculationsMachine';
import { errorText, formatNumber, formatTime, useFormats } from './format';
import { StaffGrid, type PageRequest } from './StaffGrid';
import { OUTCOMES, type CalculationDetail, type CalculationFilter, type CalculationRow } from './staffApi';

const PAGE = 25;

/** The calculation history for staff: every calculation, filtered, paged on the server, exported as CSV; a click shows its inputs and results. */
export function CalculationsScreen() {
  const { t } = useTranslation();
  const { staff } = useServices();
  const formats = useFormats();
  useDocumentTitle(t('staff.calculations.title'));
  const [state, send] = useMachine(calculationsMachine, { input: {} });
  const { draft, applied, opened, rangeError } = state.context;
  const systems = useQuery({ queryKey: ['staff', 'calculationSystems'], queryFn: staff.calculationSystems });
  const [total, setTotal] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);

  const fetchPage = useCallback(
    async (request: PageRequest) => {
      const page = await staff.calculations(applied, request.offset, request.limit, request.sort?.column === 'time' && !request.sort.desc);
      setTotal(page.total);
      setLoadError(null);
      return page;
    },
    [staff, applied],
  );

  const columns = useMemo<ColDef<CalculationRow>[]>(() => {
    const number = ({ value }: { value: unknown }) => formatNumber(formats.number, value as string);
    return [
      { colId: 'time', field: 'time', headerName: t('staff.calculations.time'), sortable: true, sort: 'desc', width: 158, valueFormatter: ({ value }) => formatTime(formats.shortDateTime, value as string) },
      { field: 'user', headerName: t('staff.calculations.user'), width: 100 },
      { field: 'project', headerName: t('staff.calculations.project'), flex: 1, minWidth: 90, valueFormatter: ({ value }) => (value as string) || t('staff.calculations.unsaved') },
      { field: 'run', headerName: t('staff.calculations.run'), width: 75 },
      {
        field: 'outcome',
        headerName: t('staff.calculations.result'),
        flex: 2,
        minWidth: 140,
        valueFormatter: ({ value, data }) => (data ? outcomeText(t, data) : String(value ?? '')),
        cellClass: ({ value }) => `staff-outcome staff-outcome--${String(value)}`,
      },
      { field: 'system', headerName: t('staff.calculations.system'), width: 85 },
      { field: 'method', headerName: t('staff.calculations.method'), width: 85 },
      { field: 'length_m', headerName: t('staff.calculations.length'), width: 80, type: 'rightAligned', valueFormatter: number },
      { field: 'area_m2', headerName: t('staff.calculations.area'), width: 75, type: 'rightAligned', valueFormatter: number },
      { field: 'intensity_mm_h', headerName: t('staff.calculations.intensity'), width: 85, type: 'rightAligned', valueFormatter: number },
      { field: 'discharge_l_s', headerName: t('staff.calculations.discharge'), width: 100, type: 'rightAligned', valueFormatter: number },
      {
        field: 'duration_ms',
        headerName: t('staff.calculations.duration'),
        width: 90,
        type: 'rightAligned',
        valueFormatter: ({ value }) => (typeof value === 'number' ? formats.duration.format(value) : '–'),
      },
    ];
  },
    [t, formats],
  );

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send({ type: 'APPLY' });
  }
  const edit = (changes: Partial<CalculationFilter>) => send({ type: 'EDIT', changes });
  // Choices take effect at once; typed text on Apply.
  const choose = (changes: Partial<CalculationFilter>) => {
    edit(changes);
    send({ type: 'APPLY' });
  };

  return (
    <section className="card" aria-labelledby="calculations-title">
      <header className="projects__header">
        <div>
          <h1 id="calculations-title">{t('staff.calculations.title')}</h1>
          <p className="form__intro">{t('staff.calculations.intro')}</p>
        </div>
        <a className="button button--quiet" href={staff.csvURL(applied)} download>
          {t('staff.calculations.export')}
        </a>
      </header>
      <form className="staff-filters" aria-label={t('staff.calculations.filters')} onSubmit={apply}>
        <div className="field">
          <label htmlFor="calc-user">{t('staff.calculations.filterUser')}</label>
          <input id="calc-user" value={draft.user} onChange={(e) => edit({ user: e.target.value })} placeholder={t('staff.calculations.userPlaceholder')} />
        </div>
        <div className="field">
          <label htmlFor="calc-project">{t('staff.calculations.filterProject')}</label>
          <input id="calc-project" value={draft.project} onChange={(e) => edit({ project: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="calc-system">{t('staff.calculations.system')}</label>
          <select id="calc-system" value={draft.system} onChange={(e) => choose({ system: e.target.value })}>
            <option value="">{t('staff.calculations.any')}</option>
            {(systems.data ?? []).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="calc-outcome">{t('staff.calculations.result')}</label>
          <select id="calc-outcome" value={draft.outcome} onChange={(e) => choose({ outcome: e.target.value as CalculationFilter['outcome'] })}>
            <option value="">{t('staff.calculations.any')}</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {t(`staff.outcome.${o}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="calc-from">{t('staff.calculations.from')}</label>
          <input id="calc-from" type="date" value={draft.from} onChange={(e) => edit({ from: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="calc-to">{t('staff.calculations.to')}</label>
          <input id="calc-to" type="date" value={draft.to} onChange={(e) => edit({ to: e.target.value })} />
        </div>
        <div className="button-row staff-filters__buttons">
          <button type="submit" className="button button--primary">
            {t('staff.calculations.apply')}
          </button>
          <button type="button" className="button button--quiet" onClick={() => send({ type: 'CLEAR' })}>
            {t('staff.calculations.clear')}
          </button>
        </div>
      </form>
      {rangeError && <Notice tone="error">{t('staff.calculations.badRange')}</Notice>}
      {!!loadError && <Notice tone="error">{errorText(t, loadError)}</Notice>}
      <p className="staff-status" aria-live="polite">
        {total !== null && t('staff.calculations.count', { shown: formats.integer.format(total) })}
      </p>
      <StaffGrid<CalculationRow>
        label={t('staff.calculations.title')}
        columns={columns}
        fetchPage={fetchPage}
        rowId={(row) => row.id}
        pageSize={PAGE}
        onOpen={(row) => send({ type: 'OPEN', id: row.id })}
        onError={setLoadError}
      />
      {opened && <CalculationDialog id={opened} onClose={() => send({ type: 'CLOSE' })} />}
    </section>
  );
}

function outcomeText(t: TFunction, row: Pick<CalculationRow, 'outcome' | 'message'>): string {
  const name = t(`staff.outcome.${row.outcome}`);
  return row.outcome === 'failed' && row.message ? `${name}: ${row.message}` : name;
}

/** One calculation exactly as it was made: what went in and what came out. */
function CalculationDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { staff } = useServices();
  const formats = useFormats();
  const detail = useQuery({ queryKey: ['staff', 'calculation', id], queryFn: () => staff.calculation(id) });
  const d = detail.data;
  return (
    <Dialog
      title={t('staff.calculation.title')}
      width={900}
      onClose={onClose}
      actions={
        <button type="button" className="button button--primary" onClick={onClose}>
          {t('staff.close')}
        </button>
      }
    >
      {detail.isError && <Notice tone="error">{errorText(t, detail.error)}</Notice>}
      {!d ? (
        !detail.isError && <p>{t('app.loading')}</p>
      ) : (
        <>
          <p className="staff-calculation__head">
            {t('staff.calculation.head', {
              time: formatTime(formats.dateTime, d.time),
              user: d.user || d.user_id,
              project: d.project || t('staff.calculations.unsaved'),
              run: d.run,
            })}
          </p>
          <p className={`staff-outcome staff-outcome--${d.outcome}`}>
            <strong>{outcomeText(t, d)}</strong>
            {d.duration_ms !== null && <> · {t('staff.calculation.took', { ms: formats.duration.format(d.duration_ms) })}</>}
          </p>
          <div className="staff-calculation">
            <ValueTable title={t('staff.calculation.inputs')} values={d.inputs} />
            {d.results ? <ValueTable title={t('staff.calculation.results')} values={d.results} /> : <ErrorBox detail={d} />}
          </div>
        </>
      )}
    </Dialog>
  );
}

function ErrorBox({ detail }: { detail: CalculationDetail }) {
  const { t } = useTranslation();
  return (
    <section>
      <h3>{t('staff.calculation.results')}</h3>
      <Notice tone="error">{detail.error || detail.message}</Notice>
    </section>
  );
}

/** Field and value, as stored: nested values shown as JSON. */
function ValueTable({ title, values }: { title: string; values: Record<string, unknown> }) {
  const entries = Object.entries(values).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section>
      <h3>{title}</h3>
      <table className="staff-values">
        <tbody>
          {entries.map(([key, value]) => (
            <tr key={key}>
              <th scope="row">{key}</th>
              <td>
                {value !== null && typeof value === 'object' ? <code className="staff-values__json">{JSON.stringify(value)}</code> : String(value)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

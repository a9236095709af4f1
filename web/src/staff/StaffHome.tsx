import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type en from '../../locales/en.json';
import { useServices } from '../app/ServicesContext';
import { Dialog } from '../components/Dialog';
import { Notice } from '../components/Notice';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { Link } from '../router/Link';
import { paths } from '../router/routes';
import { errorText, groupName, useFormats } from './format';
import { StaffGrid, type PageRequest } from './StaffGrid';
import { StaffHistory } from './StaffHistory';
import type { GroupChoice, StaffUser } from './staffApi';
import { createStaffUsersMachine, type UserAction } from './staffUsersMachine';

type FactKey = Extract<keyof typeof en, `staff.fact.${string}`>;

/** How many facts of the day there are (staff.fact.0 … staff.fact.N-1). */
export const FACTS = 8;

/** Today's fact: the same all day, the next one tomorrow. */
export function factOfTheDay(now: Date = new Date()): number {
  const day = Math.floor((now.getTime() - now.getTimezoneOffset() * 60_000) / 86_400_000);
  return ((day % FACTS) + FACTS) % FACTS;
}

const PAGE = 25;

/** The staff home: the fact of the day, the counts, the user list and the latest staff actions. */
export function StaffHome() {
  const { t } = useTranslation();
  const { staff } = useServices();
  const queryClient = useQueryClient();
  useDocumentTitle(t('staff.title'));
  const summary = useQuery({ queryKey: ['staff', 'summary'], queryFn: staff.summary });
  const [state, send] = useMachine(useMemo(() => createStaffUsersMachine(staff), [staff]));
  const { search, hideBlocked, revision, action, done, error } = state.context;
  const [grantable, setGrantable] = useState<GroupChoice[]>([]);
  const [loadError, setLoadError] = useState<unknown>(null);
  const formats = useFormats();

  // After a change the counts and the staff history are read again too.
  useEffect(() => {
    if (revision > 0) void queryClient.invalidateQueries({ queryKey: ['staff'] });
  }, [revision, queryClient]);

  const fetchPage = useCallback(
    async (request: PageRequest) => {
      // revision: a new function after each change, so the grid reads again.
      void revision;
      const page = await staff.users({ search, hideBlocked, offset: request.offset, limit: request.limit, sort: request.sort?.column, desc: request.sort?.desc });
      setGrantable(page.grantable);
      setLoadError(null);
      return page;
    },
    [staff, search, hideBlocked, revision],
  );

  const busy = state.matches('acting');
  const act = useCallback((a: UserAction) => send({ type: 'ACT', action: a }), [send]);
  const columns = useMemo<ColDef<StaffUser>[]>(
    () => [
      {
        colId: 'username',
        field: 'username',
        headerName: t('staff.users.username'),
        sortable: true,
        minWidth: 120,
        flex: 1,
        cellRenderer: ({ data }: ICellRendererParams<StaffUser>) =>
          data ? (
            <Link to={paths.staffUser(data.id)} title={t('staff.users.openProjects', { username: data.username })}>
              {data.username}
            </Link>
          ) : null,
      },
      { colId: 'full_name', field: 'full_name', headerName: t('staff.users.fullName'), sortable: true, minWidth: 110, flex: 1 },
      { colId: 'company', field: 'company', headerName: t('staff.users.company'), sortable: true, minWidth: 100, flex: 1 },
      { colId: 'country', field: 'country', headerName: t('staff.users.country'), sortable: true, width: 95 },
      {
        colId: 'projects',
        headerName: t('staff.users.projects'),
        width: 135,
        valueGetter: ({ data }) =>
          data ? (data.deleted_projects ? t('staff.users.projectCount', { live: data.projects, deleted: data.deleted_projects }) : String(data.projects)) : '',
      },
      {
        colId: 'blocked',
        field: 'blocked',
        headerName: t('staff.users.blocked'),
        sortable: true,
        width: 95,
        valueFormatter: ({ value }) => (value ? t('staff.yes') : t('staff.no')),
        cellClass: ({ value }) => (value ? 'staff-grid__blocked' : ''),
      },
      {
        colId: 'group',
        field: 'group',
        headerName: t('staff.users.group'),
        sortable: true,
        width: 180,
        cellRenderer: ({ data }: ICellRendererParams<StaffUser>) =>
          data ? <GroupCell user={data} grantable={grantable} busy={busy} onChange={(group) => act({ kind: 'group', user: data, group })} /> : null,
      },
      {
        colId: 'actions',
        headerName: t('staff.users.actions'),
        width: 205,
        cellRenderer: ({ data }: ICellRendererParams<StaffUser>) =>
          data?.manageable ? (
            <span className="staff-grid__actions">
              <button
                type="button"
                className="button button--quiet button--small"
                disabled={busy}
                onClick={() => act({ kind: data.blocked ? 'unblock' : 'block', user: data })}
                aria-label={t(data.blocked ? 'staff.users.unblockUser' : 'staff.users.blockUser', { username: data.username })}
              >
                {t(data.blocked ? 'staff.users.unblock' : 'staff.users.block')}
              </button>
              <button
                type="button"
                className="button button--danger button--small"
                disabled={busy}
                onClick={() => act({ kind: 'delete', user: data })}
                aria-label={t('staff.users.deleteUser', { username: data.username })}
              >
                {t('staff.users.delete')}
              </button>
            </span>
          ) : null,
      },
    ],
    [t, grantable, busy, act],
  );

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = new FormData(event.currentTarget).get('search');
    send({ type: 'SEARCH', search: typeof text === 'string' ? text : '' });
  }

  const fact = factOfTheDay();
  const counts = summary.data;
  return (
    <>
      <section className="card staff-home" aria-labelledby="staff-title">
        <h1 id="staff-title">{t('staff.title')}</h1>
        <figure className="staff-fact">
          <figcaption>{t('staff.factTitle')}</figcaption>
          <blockquote>{t(`staff.fact.${fact}` as FactKey)}</blockquote>
        </figure>
        <dl className="staff-stats" aria-busy={summary.isPending}>
          {(
            [
              ['users', counts?.users],
              ['projects', counts?.projects],
              ['calculationsToday', counts?.calculations_today],
              ['failuresToday', counts?.failures_today],
            ] as const
          ).map(([key, value]) => (
            <div key={key} className={key === 'failuresToday' && value ? 'staff-stat staff-stat--alert' : 'staff-stat'}>
              <dt>{t(`staff.stats.${key}`)}</dt>
              <dd>{value === undefined ? '–' : formats.integer.format(value)}</dd>
            </div>
          ))}
        </dl>
        {summary.isError && <Notice tone="error">{errorText(t, summary.error)}</Notice>}
      </section>

      <section className="card" aria-labelledby="staff-users-title">
        <h2 id="staff-users-title">{t('staff.users.title')}</h2>
        <form className="staff-filters" role="search" onSubmit={onSearch}>
          <div className="field staff-filters__grow">
            <label htmlFor="staff-user-search">{t('staff.users.search')}</label>
            <input id="staff-user-search" name="search" type="search" defaultValue={search} placeholder={t('staff.users.searchPlaceholder')} />
          </div>
          <button type="submit" className="button button--primary">
            {t('staff.users.searchButton')}
          </button>
          <label className="checkbox staff-filters__check">
            <input type="checkbox" checked={hideBlocked} onChange={(event) => send({ type: 'HIDE_BLOCKED', hide: event.target.checked })} />
            {t('staff.users.hideBlocked')}
          </label>
        </form>
        <div aria-live="polite" className="staff-status">
          {done && !error && <Notice tone="success">{doneText(t, done)}</Notice>}
        </div>
        {!!error && <Notice tone="error">{errorText(t, error)}</Notice>}
        {!!loadError && <Notice tone="error">{errorText(t, loadError)}</Notice>}
        <StaffGrid<StaffUser>
          label={t('staff.users.title')}
          columns={columns}
          fetchPage={fetchPage}
          rowId={(row) => row.id}
          pageSize={PAGE}
          onError={setLoadError}
        />
      </section>

      <StaffHistory kind="users" />

      {state.matches('confirming') && action?.kind === 'delete' && (
        <Dialog
          title={t('staff.users.confirmTitle', { username: action.user.username })}
          tone="warning"
          onClose={() => send({ type: 'CANCEL' })}
          actions={
            <>
              <button type="button" className="button button--quiet" onClick={() => send({ type: 'CANCEL' })} data-autofocus>
                {t('staff.cancel')}
              </button>
              <button type="button" className="button button--danger" onClick={() => send({ type: 'CONFIRM' })}>
                {t('staff.users.confirmDelete')}
              </button>
            </>
          }
        >
          <p>{t('staff.users.confirmBody', { username: action.user.username, name: action.user.full_name || action.user.username })}</p>
        </Dialog>
      )}
    </>
  );
}

function doneText(t: TFunction, done: UserAction): string {
  switch (done.kind) {
    case 'block':
      return t('staff.users.didBlock', { username: done.user.username });
    case 'unblock':
      return t('staff.users.didUnblock', { username: done.user.username });
    case 'group':
      return t('staff.users.didGroup', { username: done.user.username, group: groupName(t, done.group) });
    case 'delete':
      return t('staff.users.didDelete', { username: done.user.username });
  }
}

/** The account's group: a choice of the groups the actor may grant, or just its name. */
function GroupCell({ user, grantable, busy, onChange }: { user: StaffUser; grantable: GroupChoice[]; busy: boolean; onChange: (group: string) => void }) {
  const { t } = useTranslation();
  const label = (code: string) => groupName(t, code);
  if (!user.manageable) return <span>{label(user.group)}</span>;
  const choices = grantable.some((g) => g.code === user.group) ? grantable : [{ code: user.group, label: user.group }, ...grantable];
  return (
    <select
      className="staff-grid__select"
      value={user.group}
      disabled={busy}
      aria-label={t('staff.users.groupOf', { username: user.username })}
      onChange={(event) => onChange(event.target.value)}
    >
      {choices.map((g) => (
        <option key={g.code} value={g.code}>
          {label(g.code)}
        </option>
      ))}
    </select>
  );
}

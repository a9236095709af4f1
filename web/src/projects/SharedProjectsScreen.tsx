import { useQuery } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProjectListItem } from '../api/types';
import { useServices, useSession } from '../app/ServicesContext';
import { Notice } from '../components/Notice';
import { useDateLocale } from '../components/useDateLocale';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { DATE_TIME } from '../i18n/locale';
import { navigate } from '../router/history';
import { paths } from '../router/routes';
import { SessionExpiredError } from '../session/authedSend';
import { compareCreated, formatDate, ProjectGrid } from './ProjectGrid';

/** Spec: 25 rows a page, with 25, 50 or 100 to choose from. */
export const SHARED_PAGE_SIZES = [25, 50, 100];

/** Projects shared with the provider, for users with the shared-projects right; a click opens one. */
export function SharedProjectsScreen({ creator }: { creator: string | null }) {
  const { t } = useTranslation();
  const { drainage } = useServices();
  const allowed = useSession((s) => !!s.context.user && (s.context.user.shared_projects || s.context.user.is_admin));
  const projects = useQuery({ queryKey: ['projects', 'shared', creator], queryFn: () => drainage.sharedProjects(creator ?? undefined), enabled: allowed });
  const locale = useDateLocale();
  useDocumentTitle(t('shared.title'));

  const columns = useMemo<ColDef<ProjectListItem>[]>(() => {
    const dates = new Intl.DateTimeFormat(locale, DATE_TIME);
    return [
      { field: 'name', headerName: t('projects.name'), flex: 2, minWidth: 150 },
      { field: 'location', headerName: t('projects.location'), flex: 2, minWidth: 120 },
      { field: 'reference', headerName: t('projects.reference'), flex: 1, minWidth: 110 },
      { field: 'country', headerName: t('shared.country'), flex: 1, minWidth: 90 },
      {
        field: 'created_at',
        colId: 'date',
        headerName: t('projects.date'),
        flex: 1,
        minWidth: 170,
        sort: 'desc',
        comparator: compareCreated,
        valueFormatter: ({ value }) => formatDate(dates, value),
      },
      { field: 'created_by', colId: 'creator', headerName: t('projects.creator'), flex: 1, minWidth: 110 },
      { field: 'saved_by', colId: 'saver', headerName: t('shared.lastSaver'), flex: 1, minWidth: 110 },
      // The project's timeline: every change, any version, comparisons (history/TimelineScreen.tsx).
      {
        colId: 'timeline',
        headerName: '',
        sortable: false,
        minWidth: 120,
        flex: 1,
        cellRenderer: ({ data }: { data?: ProjectListItem }) =>
          data ? (
            <button type="button" className="button button--quiet button--small" aria-label={t('timeline.openFor', { name: data.name })} onClick={() => navigate(paths.timeline(data.id))}>
              {t('timeline.title')}
            </button>
          ) : null,
      },
    ];
  }, [t, locale]);

  return (
    <section className="card projects" aria-labelledby="shared-title">
      <header className="projects__header">
        <div>
          <h1 id="shared-title">{t('shared.title')}</h1>
          <p className="form__intro">{creator ? t('shared.introCreator', { creator }) : t('shared.intro')}</p>
        </div>
      </header>
      {!allowed ? (
        <Notice tone="error">{t('shared.notAllowed')}</Notice>
      ) : projects.isError && !(projects.error instanceof SessionExpiredError) ? (
        <Notice tone="error">
          {t('projects.loadFailed')}{' '}
          <button type="button" className="button button--link" onClick={() => void projects.refetch()}>
            {t('projects.retry')}
          </button>
        </Notice>
      ) : (
        <ProjectGrid
          rows={projects.data ?? null}
          loading={projects.isPending}
          columns={columns}
          pageSizes={SHARED_PAGE_SIZES}
          emptyText={t('shared.empty')}
          onOpen={(item) => {
            if (item.support_id !== undefined) navigate(paths.supportProject(item.support_id));
          }}
        />
      )}
    </section>
  );
}

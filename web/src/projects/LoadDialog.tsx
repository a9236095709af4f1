import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProjectListItem } from '../api/types';
import { useServices } from '../app/ServicesContext';
import { Dialog } from '../components/Dialog';
import { Notice } from '../components/Notice';
import { useDateLocale } from '../components/useDateLocale';
import { useProject, useProjectActor } from '../design/ProjectProvider';
import { DATE_TIME } from '../i18n/locale';
import { SessionExpiredError } from '../session/authedSend';
import { compareCreated, formatDate, ProjectGrid } from './ProjectGrid';
import { ShareLinkDialog } from './ShareLinkDialog';

/** Spec: 10 rows a page by default, with 10, 25 or 50 to choose from. */
export const LOAD_PAGE_SIZES = [10, 25, 50];

interface RowActions {
  share: (project: ProjectListItem) => void;
  remove: (project: ProjectListItem) => void;
}

/** The load dialog: the user's saved projects, newest first; a click opens one. */
export function LoadDialog() {
  const open = useProject((s) => s.context.panel === 'load');
  return open ? <LoadDialogBody /> : null;
}

function LoadDialogBody() {
  const { t } = useTranslation();
  const { drainage } = useServices();
  const queryClient = useQueryClient();
  const project = useProjectActor();
  const projects = useQuery({ queryKey: ['projects'], queryFn: drainage.projects });
  const [link, setLink] = useState<{ url: string; id: string } | null>(null);
  const [deleting, setDeleting] = useState<ProjectListItem | null>(null);
  const locale = useDateLocale();

  const share = useMutation({
    mutationFn: (item: ProjectListItem) => drainage.share(item.id),
    onSuccess: (answer, item) => setLink({ url: answer, id: item.id }),
    // Spec: a failed share is reported only.
    onError: (error) => console.error('sharing failed', error),
  });
  const remove = useMutation({
    mutationFn: (item: ProjectListItem) => drainage.deleteProject(item.id),
    onSuccess: (_, item) => {
      project.send({ type: 'PROJECT_DELETED', id: item.id });
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
    onError: (error) => console.error('deleting failed', error),
    onSettled: () => setDeleting(null),
  });

  const actions: RowActions = { share: (item) => share.mutate(item), remove: (item) => setDeleting(item) };
  const columns = useMemo<ColDef<ProjectListItem>[]>(() => {
    const dates = new Intl.DateTimeFormat(locale, DATE_TIME);
    return [
      { field: 'name', headerName: t('projects.name'), flex: 2, minWidth: 150 },
      { field: 'location', headerName: t('projects.location'), flex: 2, minWidth: 120 },
      { field: 'reference', headerName: t('projects.reference'), flex: 1, minWidth: 120 },
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
      { colId: 'creator', headerName: t('projects.creator'), flex: 1, minWidth: 110, valueGetter: ({ data }) => data?.created_by || data?.saved_by || '' },
      {
        colId: 'actions',
        headerName: '',
        sortable: false,
        resizable: false,
        width: 190,
        cellRenderer: RowButtons,
        cellRendererParams: { actions },
      },
    ];
    // actions are rebuilt each render but only call stable mutations.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, locale]);

  const close = () => project.send({ type: 'PANEL', panel: null });
  return (
    <>
      <Dialog
        title={t('load.title')}
        width={1040}
        onClose={close}
        className="load-dialog"
        actions={
          <button type="button" className="button button--quiet" onClick={close}>
            {t('common.cancel')}
          </button>
        }
      >
        <p className="form__intro">{t('load.intro')}</p>
        {projects.isError && !(projects.error instanceof SessionExpiredError) ? (
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
            pageSizes={LOAD_PAGE_SIZES}
            emptyText={t('projects.empty')}
            onOpen={(item) => project.send({ type: 'LOAD', key: { id: item.id } })}
          />
        )}
      </Dialog>
      {link && <ShareLinkDialog link={link.url} projectId={link.id} onClose={() => setLink(null)} />}
      {deleting && (
        <Dialog
          title={t('load.deleteTitle')}
          tone="warning"
          onClose={() => setDeleting(null)}
          actions={
            <>
              <button type="button" className="button button--danger" disabled={remove.isPending} onClick={() => remove.mutate(deleting)}>
                {t('load.deleteConfirm')}
              </button>
              <button type="button" className="button button--quiet" onClick={() => setDeleting(null)} data-autofocus>
                {t('common.cancel')}
              </button>
            </>
          }
        >
          <p>{t('load.deleteBody', { name: deleting.name })}</p>
        </Dialog>
      )}
    </>
  );
}

function RowButtons({ data, actions }: ICellRendererParams<ProjectListItem> & { actions: RowActions }) {
  const { t } = useTranslation();
  if (!data) return null;
  return (
    <span className="row-buttons">
      <button type="button" className="button button--quiet button--small" aria-label={t('load.shareRow', { name: data.name })} onClick={() => actions.share(data)}>
        {t('load.share')}
      </button>
      <button type="button" className="button button--quiet button--small button--danger-text" aria-label={t('load.deleteRow', { name: data.name })} onClick={() => actions.remove(data)}>
        {t('load.delete')}
      </button>
    </span>
  );
}

import { useQuery } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProjectListItem } from '../api/types';
import { useServices } from '../app/ServicesContext';
import { Notice } from '../components/Notice';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { compareCreated, ProjectGrid } from '../projects/ProjectGrid';
import { navigate } from '../router/history';
import { Link } from '../router/Link';
import { paths } from '../router/routes';
import { errorText, formatTime, groupName, useFormats } from './format';

type StaffProject = ProjectListItem & { deleted_at?: string };

/** One user's projects for staff, deleted ones included; a click opens one read-only. */
export function UserProjectsScreen({ userID }: { userID: string }) {
  const { t } = useTranslation();
  const { staff } = useServices();
  const formats = useFormats();
  const user = useQuery({ queryKey: ['staff', 'user', userID], queryFn: () => staff.user(userID) });
  const projects = useQuery({ queryKey: ['staff', 'userProjects', userID], queryFn: () => staff.userProjects(userID) });
  const name = user.data?.username ?? '';
  useDocumentTitle(name ? t('staff.userProjects.title', { username: name }) : t('staff.title'));

  const columns = useMemo<ColDef<StaffProject>[]>(() => {
    const when = (value: unknown) => formatTime(formats.dateTime, typeof value === 'string' ? value : '');
    return [
      { field: 'name', headerName: t('projects.name'), flex: 2, minWidth: 150 },
      { field: 'location', headerName: t('projects.location'), flex: 1, minWidth: 110 },
      { field: 'reference', headerName: t('projects.reference'), flex: 1, minWidth: 100 },
      { field: 'country', headerName: t('shared.country'), width: 100 },
      { field: 'created_at', colId: 'created', headerName: t('staff.userProjects.created'), minWidth: 170, sort: 'desc', comparator: compareCreated, valueFormatter: ({ value }) => when(value) },
      { field: 'last_saved', colId: 'saved', headerName: t('staff.userProjects.lastSaved'), minWidth: 170, comparator: compareCreated, valueFormatter: ({ value }) => when(value) },
      { field: 'saved_by', colId: 'savedBy', headerName: t('shared.lastSaver'), minWidth: 120 },
      {
        field: 'deleted_at',
        colId: 'deleted',
        headerName: t('staff.userProjects.deleted'),
        minWidth: 170,
        comparator: compareCreated,
        valueFormatter: ({ value }) => when(value),
        cellClass: ({ value }) => (value ? 'staff-grid__blocked' : ''),
      },
    ];
  }, [t, formats]);

  const u = user.data;
  return (
    <section className="card projects" aria-labelledby="user-projects-title">
      <p className="staff-breadcrumb">
        <Link to={paths.staff}>{t('staff.nav.home')}</Link> › {name}
      </p>
      <header className="projects__header">
        <div>
          <h1 id="user-projects-title">{name ? t('staff.userProjects.title', { username: name }) : t('app.loading')}</h1>
          {u && (
            <p className="form__intro">
              {[u.full_name, u.company, u.country, groupName(t, u.group), u.blocked ? t('staff.userProjects.blocked') : '']
                .filter(Boolean)
                .join(' · ')}
            </p>
          )}
          <p className="form__intro">{t('staff.userProjects.intro')}</p>
        </div>
      </header>
      {user.isError && <Notice tone="error">{errorText(t, user.error)}</Notice>}
      {projects.isError ? (
        <Notice tone="error">{errorText(t, projects.error)}</Notice>
      ) : (
        <ProjectGrid
          rows={projects.data ?? null}
          loading={projects.isPending}
          columns={columns as ColDef<ProjectListItem>[]}
          pageSizes={[25, 50, 100]}
          emptyText={t('staff.userProjects.empty')}
          onOpen={(item) => navigate(paths.staffUserProject(userID, item.id))}
        />
      )}
    </section>
  );
}

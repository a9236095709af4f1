import { useQuery } from '@tanstack/react-query';
import {
  ClientSideRowModelModule,
  ColumnAutoSizeModule,
  LocaleModule,
  ModuleRegistry,
  PaginationModule,
  RowStyleModule,
  ValidationModule,
  themeQuartz,
  type ColDef,
  type GetLocaleTextParams,
  type Module,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProjectListItem } from '../api/types';
import { useServices } from '../app/ServicesContext';
import { Notice } from '../components/Notice';
import { isLanguageCode, toBcp47 } from '../i18n/languages';
import { SessionExpiredError } from '../session/authedSend';

const gridModules: Module[] = [
  ClientSideRowModelModule,
  PaginationModule,
  LocaleModule,
  ColumnAutoSizeModule,
  RowStyleModule,
];
// In development the grid names any feature used without its module.
if (import.meta.env.DEV) gridModules.push(ValidationModule);
ModuleRegistry.registerModules(gridModules);

/** Spec: 10 rows a page by default, with 10, 25 or 50 to choose from. */
export const PAGE_SIZES = [10, 25, 50];
const ROW_HEIGHT = 42;

const theme = themeQuartz.withParams({
  accentColor: '#0b5fa5',
  fontFamily: 'inherit',
  headerFontWeight: 600,
  rowHeight: ROW_HEIGHT,
  headerHeight: 44,
  borderRadius: 8,
  wrapperBorderRadius: 10,
});

/** Newest first: ISO timestamps compared as instants, unparseable ones last. */
export function compareCreated(a: string | undefined, b: string | undefined): number {
  const left = a ? Date.parse(a) : Number.NaN;
  const right = b ? Date.parse(b) : Number.NaN;
  if (Number.isNaN(left) && Number.isNaN(right)) return 0;
  if (Number.isNaN(left)) return -1;
  if (Number.isNaN(right)) return 1;
  return left - right;
}

export function ProjectTable() {
  const { t, i18n } = useTranslation();
  const { drainage } = useServices();
  const projects = useQuery({ queryKey: ['projects'], queryFn: drainage.projects });
  const locale = isLanguageCode(i18n.language) ? toBcp47(i18n.language) : 'en';

  const columns = useMemo<ColDef<ProjectListItem>[]>(() => {
    const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    return [
      { field: 'name', headerName: t('projects.name'), flex: 2, minWidth: 160 },
      { field: 'location', headerName: t('projects.location'), flex: 2, minWidth: 140 },
      { field: 'reference', headerName: t('projects.reference'), flex: 1, minWidth: 160 },
      {
        field: 'created_at',
        colId: 'date',
        headerName: t('projects.date'),
        flex: 1,
        minWidth: 210,
        sort: 'desc',
        comparator: compareCreated,
        valueFormatter: ({ value }) => formatDate(dates, value),
      },
      { field: 'saved_by', colId: 'creator', headerName: t('projects.creator'), flex: 1, minWidth: 130 },
    ];
  }, [t, locale]);

  const localeText = (params: GetLocaleTextParams) => {
    const key = `grid.${params.key}`;
    return i18n.exists(key) ? (t as unknown as (k: string) => string)(key) : params.defaultValue;
  };

  if (projects.isError && !(projects.error instanceof SessionExpiredError)) {
    return (
      <Notice tone="error">
        {t('projects.loadFailed')}{' '}
        <button type="button" className="button button--link" onClick={() => void projects.refetch()}>
          {t('projects.retry')}
        </button>
      </Notice>
    );
  }

  return (
    <div className="project-table" style={{ ['--table-min-rows-height' as string]: `${ROW_HEIGHT * PAGE_SIZES[0]!}px` }}>
      <AgGridReact<ProjectListItem>
        // The grid reads its texts once: a new language needs a new grid.
        key={i18n.language}
        theme={theme}
        rowData={projects.data ?? null}
        loading={projects.isPending}
        columnDefs={columns}
        defaultColDef={{ sortable: true, resizable: true }}
        getRowId={({ data }) => String(data.id)}
        getLocaleText={localeText}
        pagination
        paginationPageSize={PAGE_SIZES[0]}
        paginationPageSizeSelector={PAGE_SIZES}
        domLayout="autoHeight"
        ensureDomOrder
        overlayComponentParams={{ noRows: { overlayText: t('projects.empty') } }}
      />
    </div>
  );
}

function formatDate(format: Intl.DateTimeFormat, value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : format.format(time);
}

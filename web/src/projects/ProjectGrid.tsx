import {
  ClientSideRowModelModule,
  ColumnAutoSizeModule,
  LocaleModule,
  ModuleRegistry,
  PaginationModule,
  RowAutoHeightModule,
  RowStyleModule,
  ValidationModule,
  themeQuartz,
  type ColDef,
  type GetLocaleTextParams,
  type Module,
  type RowClickedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useTranslation } from 'react-i18next';
import type { ProjectListItem } from '../api/types';

const gridModules: Module[] = [ClientSideRowModelModule, PaginationModule, LocaleModule, ColumnAutoSizeModule, RowStyleModule, RowAutoHeightModule];
// In development the grid names any feature used without its module.
if (import.meta.env.DEV) gridModules.push(ValidationModule);
ModuleRegistry.registerModules(gridModules);

export const ROW_HEIGHT = 42;

export const gridTheme = themeQuartz.withParams({
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

interface ProjectGridProps {
  rows: ProjectListItem[] | null;
  loading: boolean;
  columns: ColDef<ProjectListItem>[];
  pageSizes: number[];
  emptyText: string;
  onOpen?: (project: ProjectListItem) => void;
}

/** A paged project table; it keeps the height of its default page size even when it holds fewer rows. */
export function ProjectGrid({ rows, loading, columns, pageSizes, emptyText, onOpen }: ProjectGridProps) {
  const { t, i18n } = useTranslation();
  const localeText = (params: GetLocaleTextParams) => {
    const key = `grid.${params.key}`;
    return i18n.exists(key) ? (t as unknown as (k: string) => string)(key) : params.defaultValue;
  };
  return (
    <div className="project-table" style={{ ['--table-min-rows-height' as string]: `${ROW_HEIGHT * (pageSizes[0] ?? 10)}px` }}>
      <AgGridReact<ProjectListItem>
        // The grid reads its texts once: a new language needs a new grid.
        key={i18n.language}
        theme={gridTheme}
        rowData={rows}
        loading={loading}
        columnDefs={columns}
        // Long names and places wrap inside their cell rather than end in an ellipsis.
        defaultColDef={{ sortable: true, resizable: true, wrapText: true, autoHeight: true }}
        getRowId={({ data }) => String(data.id)}
        getLocaleText={localeText}
        pagination
        paginationPageSize={pageSizes[0]}
        paginationPageSizeSelector={pageSizes}
        domLayout="autoHeight"
        ensureDomOrder
        rowClass={onOpen ? 'project-table__row--open' : undefined}
        onRowClicked={(event: RowClickedEvent<ProjectListItem>) => {
          // Clicks on the row's own buttons are theirs.
          if ((event.event?.target as HTMLElement | null)?.closest('button')) return;
          if (event.data) onOpen?.(event.data);
        }}
        overlayComponentParams={{ noRows: { overlayText: emptyText } }}
      />
    </div>
  );
}

export function formatDate(format: Intl.DateTimeFormat, value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : format.format(time);
}
